"""The Numba skeleton walker matches its pure-Python reference pixel for pixel."""

import cv2
import numpy as np
import pytest
from skimage.morphology import skeletonize

from cvparse.connectors._walk import walk_skeleton_nb as walk_skeleton, walk_skeleton_py


def _paths(coords, offsets):
    return [coords[offsets[i]:offsets[i + 1]].tolist() for i in range(len(offsets) - 1)]


def test_straight_line_is_one_path_between_its_ends():
    skel = np.zeros((5, 12), bool)
    skel[2, 1:11] = True
    paths = _paths(*walk_skeleton(skel))
    assert len(paths) == 1
    assert {tuple(paths[0][0]), tuple(paths[0][-1])} == {(2, 1), (2, 10)}
    assert len(paths[0]) == 10


def test_cross_gives_one_arm_to_each_end_point():
    skel = np.zeros((11, 11), bool)
    skel[5, :] = True
    skel[:, 5] = True
    paths = _paths(*walk_skeleton(skel))
    tips = {(0, 5), (10, 5), (5, 0), (5, 10)}
    arms = [p for p in paths if tuple(p[0]) in tips or tuple(p[-1]) in tips]
    assert len(arms) == 4
    centre = {(4, 5), (6, 5), (5, 4), (5, 6), (5, 5)}
    for p in arms:
        other = p[-1] if tuple(p[0]) in tips else p[0]
        assert tuple(other) in centre
    # the rest are the two-pixel links inside the junction cluster
    assert all(len(p) == 2 for p in paths if p not in arms)


def test_closed_loop_without_junction_returns_to_its_start():
    m = np.zeros((30, 30), np.uint8)
    cv2.circle(m, (15, 15), 10, 1, 1)
    skel = skeletonize(m.astype(bool))
    paths = _paths(*walk_skeleton(skel))
    assert len(paths) == 1
    assert paths[0][0] == paths[0][-1]
    assert len(paths[0]) == int(skel.sum()) + 1


@pytest.mark.parametrize("seed", range(12))
def test_numba_matches_reference_on_random_drawings(seed):
    rng = np.random.default_rng(seed)
    m = np.zeros((90, 130), np.uint8)
    for _ in range(7):
        p = rng.integers(0, [130, 90], size=(2, 2))
        cv2.line(m, tuple(map(int, p[0])), tuple(map(int, p[1])), 1, int(rng.integers(1, 5)))
    cv2.circle(m, (65, 45), int(rng.integers(5, 30)), 1, 1)
    skel = skeletonize(m.astype(bool))
    c1, o1 = walk_skeleton(skel)
    c2, o2 = walk_skeleton_py(skel)
    assert np.array_equal(o1, o2)
    assert np.array_equal(c1, c2)
    # every skeleton pixel is covered by some path
    covered = np.zeros_like(skel)
    covered[c1[:, 0], c1[:, 1]] = True
    isolated = skel & (cv2.filter2D(skel.astype(np.uint8), -1, np.ones((3, 3))) == 1)
    assert np.array_equal(covered | isolated, skel)


@pytest.mark.parametrize("seed", range(6))
def test_numba_matches_reference_on_lines_touching_the_page_border(seed):
    # the kernel addresses neighbours by flat offsets away from the border and with
    # bounds checks on it; lines running along and off every edge exercise both paths
    rng = np.random.default_rng(100 + seed)
    h, w = 40, 57
    m = np.zeros((h, w), np.uint8)
    m[0, :] = 1
    m[:, w - 1] = 1
    for _ in range(6):
        p = rng.integers(-5, [w + 5, h + 5], size=(2, 2))
        cv2.line(m, tuple(map(int, p[0])), tuple(map(int, p[1])), 1, 1)
    skel = m.astype(bool)
    c1, o1 = walk_skeleton(skel)
    c2, o2 = walk_skeleton_py(skel)
    assert np.array_equal(o1, o2)
    assert np.array_equal(c1, c2)
    assert c1.dtype == np.int32 and o1.dtype == np.int64
    assert (c1[:, 0] == 0).any() and (c1[:, 1] == w - 1).any()


def test_empty_and_single_pixel_skeletons():
    for skel in (np.zeros((4, 5), bool), np.eye(1, dtype=bool)):
        c1, o1 = walk_skeleton(skel)
        c2, o2 = walk_skeleton_py(skel)
        assert np.array_equal(c1, c2) and np.array_equal(o1, o2)


def test_walk_skeleton_picks_twin_or_kernel_with_the_same_output():
    from cvparse.connectors import _walk

    skel = np.zeros((40, 60), bool)
    skel[5, 3:50] = skel[5:35, 30] = True
    small = _walk.walk_skeleton(skel)
    big = np.zeros((300, 300), bool)
    big[::2] = True  # 45,000 pixels: above SMALL_SKELETON
    assert np.count_nonzero(big) > _walk.SMALL_SKELETON
    large = _walk.walk_skeleton(big)
    for got, ref in ((small, walk_skeleton_py(skel)), (large, walk_skeleton_py(big))):
        assert all(np.array_equal(a, b) for a, b in zip(got, ref))
    assert _walk.load_kernel.cache_info().currsize == 1
