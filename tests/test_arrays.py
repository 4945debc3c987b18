"""16-bit labelling gives OpenCV's own 32-bit results, past the 16-bit limit too."""

import cv2
import numpy as np

from cvparse.arrays import components


def test_components_match_opencv_32_bit_labels():
    rng = np.random.default_rng(2)
    masks = [(rng.random((int(rng.integers(1, 200)), int(rng.integers(1, 200))))
              < rng.random()).astype(np.uint8) for _ in range(100)]
    masks.append(np.ones((300, 300), np.uint8))  # one component of 90,000 pixels
    big = (rng.random((2000, 2000)) < 0.004).astype(np.uint8)
    big[:, 700] = 1  # if stripes were numbered by position; one line spans them all
    masks.append(big)
    dots = np.zeros((600, 600), np.uint8)
    dots[::2, ::2] = 1  # 90,000 components: past 16-bit labels, the 32-bit call takes over
    masks.append(dots)
    for m in masks:
        for conn in (4, 8):
            want = cv2.connectedComponentsWithStats(m, connectivity=conn)
            got = components(m, conn)
            assert got[0] == want[0]
            for a, b in zip(got[1:], want[1:]):
                assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_under_reads_the_pixel_nearest_each_point_and_clips_points_off_the_image():
    from cvparse.arrays import under

    image = np.arange(12).reshape(3, 4)
    pts = np.array([[0.4, 0.4], [2.6, 1.2], [-5.0, 1.0], [9.0, 7.0]])
    assert under(image, pts).tolist() == [0, 7, 4, 11]
