#!/usr/bin/env python3
"""Reference values for the tests of every rule that compares a distance with a threshold, and of interpolation.

All distances and positions come from geographiclib's Geodesic.WGS84 (Karney's algorithm, accurate to about 15 nm),
geographiclib 2.1 (`pip install geographiclib==2.1`). Computed once and committed as threshold-reference.json; the
Swift tests only read it.

    python3 make-threshold-reference.py     # rewrites threshold-reference.json next to this script

Contents (angles in degrees, distances in metres):
  pairs          [lat1, lon1, lat2, lon2, s12]  first points at 0..89.9 degrees in both hemispheres, near and across
                                                +-180, distances log-uniform from 1 m to 1,000 km on random azimuths
  polygons       {ring: [[lon, lat], ...], points: [[lat, lon, d]]}  d: geodesic distance from the point to the
                                                nearest edge, each edge straight in (lon, lat) taken the shorter way
                                                across +-180 (minimised over 2,001 samples, then by golden section)
  legs           [lat1, lon1, lat2, lon2, s12]  legs across the antimeridian and near or over the poles
"""

import json
import math
import os
import random

import geographiclib
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84
HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261123)


def wrap(lon):
    x = math.remainder(lon, 360.0)
    return 180.0 if x == -180.0 else x


def pairs():
    rows = []
    latitudes = [0, 10, 30, 45, 60, 69, 75, 80, 85, 88, 89, 89.5, 89.9]
    for lat in latitudes:
        for sign in (1, -1):
            for _ in range(24):
                lat1 = sign * lat + rng.uniform(-0.05, 0.05) if lat < 89.9 else sign * lat
                lat1 = max(-89.9, min(89.9, lat1))
                # half the first points next to the antimeridian, so that lines cross it
                lon1 = rng.choice([rng.uniform(-180, 180), 180 - rng.uniform(0, 0.5), -180 + rng.uniform(0, 0.5)])
                s = 10 ** rng.uniform(0, 6)  # 1 m .. 1,000 km
                azi = rng.uniform(-180, 180)
                d = G.Direct(lat1, lon1, azi, s)
                lat2, lon2 = d["lat2"], wrap(d["lon2"])
                s12 = G.Inverse(lat1, lon1, lat2, lon2)["s12"]
                rows.append([lat1, wrap(lon1), lat2, lon2, s12])
    return rows


def edge_distance(lat, lon, a, b):
    """Geodesic distance from (lat, lon) to the edge a->b ((lon, lat) pairs) straight in (lon, lat)."""
    (lon_a, lat_a), (lon_b, lat_b) = a, b
    dlon = lon_b - lon_a
    if abs(dlon) > 180 and not (abs(lon_a) == 180 and abs(lon_b) == 180):
        dlon -= math.copysign(360, dlon)

    def f(t):
        return G.Inverse(lat, lon, lat_a + t * (lat_b - lat_a), wrap(lon_a + t * dlon))["s12"]

    n = 2000
    best_t = min((k / n for k in range(n + 1)), key=f)
    lo, hi = max(0.0, best_t - 1.0 / n), min(1.0, best_t + 1.0 / n)
    r = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - r * (hi - lo), lo + r * (hi - lo)
    f1, f2 = f(x1), f(x2)
    for _ in range(60):
        if f1 < f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - r * (hi - lo)
            f1 = f(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + r * (hi - lo)
            f2 = f(x2)
    return min(f1, f2, f(0.0), f(1.0))


def polygons():
    result = []
    # Quadrilaterals about 40 km across at many latitudes, some across +-180; points inside and outside.
    for lat, lon in [(0, 10), (45, -73), (60, 25), (69, 179.9), (-75, -179.95), (80, 0), (85, 179.99), (-88, 60)]:
        ring = []
        for azi, s in [(45, 30000), (135, 25000), (225, 30000), (315, 20000)]:
            d = G.Direct(lat, lon, azi, s)
            ring.append([wrap(d["lon2"]), d["lat2"]])
        ring.append(ring[0])
        points = []
        for _ in range(10):
            d = G.Direct(lat, lon, rng.uniform(-180, 180), rng.uniform(0, 40000))
            plat, plon = d["lat2"], wrap(d["lon2"])
            dist = min(edge_distance(plat, plon, ring[i], ring[i + 1]) for i in range(len(ring) - 1))
            points.append([plat, plon, dist])
        result.append({"ring": ring, "points": points})
    return result


def legs():
    rows = []
    for lat1, lon1, lat2, lon2 in [
        (10, 179.99, 10.01, -179.99), (-33, -179.5, -32, 179.2), (60, 170, 61, -170), (0, 179, 0, -179),
        (89, 0, 89, 180), (88, -45, 87, 135), (-89.5, 10, -89, -170), (80, 179, 82, -179), (70, -120, 72, 60),
        (45, 10, 46, 12), (1, 1, 3, 5),
    ]:
        s12 = G.Inverse(lat1, lon1, lat2, lon2)["s12"]
        rows.append([lat1, lon1, lat2, lon2, s12])
    return rows


def main():
    data = {
        "geographiclibVersion": geographiclib.__version__,
        "pairs": pairs(),
        "polygons": polygons(),
        "legs": legs(),
    }
    with open(os.path.join(HERE, "threshold-reference.json"), "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
