// Render a batch of Mermaid charts to JPEG with mermaid-cli's bundled Mermaid and report geometry.
//
// Usage: node render.mjs JOBS.json RESULTS.json
//   JOBS.json    {"jobs": [{"id": str, "code": str, "background": str, "out": "path.jpg"}]}
//   RESULTS.json {"versions": {...}, "results": [{"id", "width", "height", "nodes", "edges",
//                 "edge_labels", "clusters"}]}
// One browser and one page serve every job (loading the 5 MB bundle per chart would dominate the
// run time). Geometry is read from the live SVG (getBoundingClientRect, getScreenCTM), so it is in
// pixels of the screenshot: image px = client px - clip origin, at deviceScaleFactor 1.

import fs from 'node:fs'
import path from 'node:path'
import url from 'node:url'
import { createRequire } from 'node:module'
import puppeteer from 'puppeteer'

const require = createRequire(import.meta.url)
const CLI_DIR = path.join(path.dirname(require.resolve('@mermaid-js/mermaid-cli')), '..')
const MERMAID_HTML = path.join(CLI_DIR, 'dist', 'index.html')
const CHROMIUM = process.env.CVPARSE_CHROMIUM || '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'
]
// Wide enough that Mermaid's width="100%" / max-width SVG is never shrunk below its natural size.
const VIEWPORT = { width: 4000, height: 3000, deviceScaleFactor: 1 }
const JPEG_QUALITY = 90
const SAMPLE_STEP_PX = 4

/** Render one chart in the page and return its clip rectangle and geometry (client px). */
async function renderInPage (page, code, background) {
  return page.$eval('#container', async (container, code, background, step) => {
    const TIP_PX = 4.8
    const { mermaid } = globalThis
    mermaid.initialize({ startOnLoad: false, theme: 'default' })
    container.innerHTML = ''
    const { svg: svgText } = await mermaid.render('my-svg', code, container)
    container.innerHTML = svgText
    document.body.style.background = background
    const svg = container.getElementsByTagName('svg')[0]
    svg.style.backgroundColor = background

    const r = svg.getBoundingClientRect()
    const vb = svg.viewBox.baseVal
    const clip = {
      x: Math.floor(r.left), y: Math.floor(r.top),
      width: Math.ceil(r.width), height: Math.ceil(r.height)
    }
    const box = (el) => {
      const b = el.getBoundingClientRect()
      return [b.left, b.top, b.right, b.bottom]
    }
    const nodes = [...svg.querySelectorAll('g.node')].map((el) => ({
      dom_id: el.id,
      classes: el.getAttribute('class'),
      text: (el.querySelector('.nodeLabel') || el).textContent,
      bbox: box(el)
    }))
    const edges = [...svg.querySelectorAll('path.flowchart-link')].map((p) => {
      const m = p.getScreenCTM()
      const total = p.getTotalLength()
      const n = Math.max(2, Math.ceil(total / step) + 1)
      const pts = []
      for (let i = 0; i < n; i++) {
        const q = p.getPointAtLength(total * i / (n - 1))
        const s = new DOMPoint(q.x, q.y).matrixTransform(m)
        pts.push([s.x, s.y])
      }
      // Arrow tip: Mermaid's pointEnd marker (viewBox 10, refX 6, 12 px wide) ends 4.8 px past
      // the path's end along its end tangent.
      const a = p.getPointAtLength(Math.max(0, total - 0.5))
      const b = p.getPointAtLength(total)
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1
      const tip = new DOMPoint(b.x + (b.x - a.x) / len * TIP_PX, b.y + (b.y - a.y) / len * TIP_PX)
        .matrixTransform(m)
      return {
        dom_id: p.id,
        classes: p.getAttribute('class'),
        d: p.getAttribute('d'),
        points: pts,
        head: p.hasAttribute('marker-end') ? [tip.x, tip.y] : null
      }
    })
    const edgeLabels = [...svg.querySelectorAll('g.edgeLabel')].map((el) => {
      const span = el.querySelector('.edgeLabel span, span.edgeLabel') || el
      const lab = el.querySelector('g.label')
      return { dom_id: lab ? lab.id : '', text: span.textContent, bbox: box(el) }
    })
    const clusters = [...svg.querySelectorAll('g.cluster')].map((el) => ({
      dom_id: el.id, bbox: box(el.querySelector('rect') || el), text: el.textContent
    }))
    return {
      clip, natural: [vb.width, vb.height], rendered: [r.width, r.height],
      nodes, edges, edge_labels: edgeLabels, clusters
    }
  }, code, background, SAMPLE_STEP_PX)
}

/** Shift client-px geometry into image px (origin at the clip's top-left). */
function toImagePx (g) {
  const dx = g.clip.x
  const dy = g.clip.y
  const bb = (b) => [b[0] - dx, b[1] - dy, b[2] - dx, b[3] - dy]
  return {
    width: g.clip.width,
    height: g.clip.height,
    natural: g.natural,
    nodes: g.nodes.map((n) => ({ ...n, bbox: bb(n.bbox) })),
    edges: g.edges.map((e) => ({
      ...e,
      points: e.points.map(([x, y]) => [x - dx, y - dy]),
      head: e.head && [e.head[0] - dx, e.head[1] - dy]
    })),
    edge_labels: g.edge_labels.map((l) => ({ ...l, bbox: bb(l.bbox) })),
    clusters: g.clusters.map((c) => ({ ...c, bbox: bb(c.bbox) }))
  }
}

/** The Mermaid version string compiled into mermaid-cli's bundle (informational). */
function bundledMermaidVersion () {
  const html = fs.readFileSync(MERMAID_HTML, 'utf8')
  const m = html.match(/="(\d+\.\d+\.\d+)",\w+=Object\.freeze\(/)
  return m ? m[1] : 'unknown'
}

async function main () {
  const [jobsPath, resultsPath] = process.argv.slice(2)
  if (!jobsPath || !resultsPath) {
    console.error('usage: node render.mjs JOBS.json RESULTS.json')
    process.exit(2)
  }
  const { jobs } = JSON.parse(fs.readFileSync(jobsPath, 'utf8'))
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: 1, args: CHROMIUM_ARGS
  })
  const results = []
  try {
    const page = await browser.newPage()
    page.on('console', (msg) => { if (msg.type() === 'error') console.error(`[page] ${msg.text()}`) })
    await page.setViewport(VIEWPORT)
    await page.goto(url.pathToFileURL(MERMAID_HTML).href)
    for (const job of jobs) {
      const g = await renderInPage(page, job.code, job.background)
      if (Math.abs(g.rendered[0] - g.natural[0]) > 0.5) {
        throw new Error(`${job.id}: SVG shrunk to ${g.rendered[0]} px (natural ${g.natural[0]})`)
      }
      await page.screenshot({ path: job.out, type: 'jpeg', quality: JPEG_QUALITY, clip: g.clip })
      results.push({ id: job.id, ...toImagePx(g) })
    }
    const cliPkg = JSON.parse(fs.readFileSync(path.join(CLI_DIR, 'package.json'), 'utf8'))
    const versions = {
      'mermaid-cli': cliPkg.version,
      mermaid: bundledMermaidVersion(),
      chromium: await browser.version()
    }
    fs.writeFileSync(resultsPath, JSON.stringify({ versions, results }))
  } finally {
    await browser.close()
  }
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err))
  process.exit(1)
})
