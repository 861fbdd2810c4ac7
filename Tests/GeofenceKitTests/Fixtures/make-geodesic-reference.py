#!/usr/bin/env python3
"""Reference values for GeofenceKit's geodesic and circle tests.

Every distance and position in geodesic-reference.json comes from geographiclib's Geodesic.WGS84, i.e. Karney's
algorithm ("Algorithms for geodesics", J. Geodesy 87, 2013), accurate to about 15 nanometres, with geographiclib 2.1
(`pip install geographiclib==2.1`). The values were computed once and committed; the Swift tests only read them.

    python3 make-geodesic-reference.py            # rewrites geodesic-reference.json next to this script
    python3 make-geodesic-reference.py --margin   # measures the error of CircleGeometry's mid-latitude plane

Contents of the JSON file (all angles in degrees, distances in metres):
  inverse        [lat1, lon1, lat2, lon2, s12]          latitudes -70..70 and beyond, 1 m .. 10 km, long lines,
                                                         antimeridian crossings
  nearAntipodal  [lat1, lon1, lat2, lon2, s12]          pairs where Vincenty's iteration may not converge
  direct         [lat1, lon1, azi1, s12, lat2, lon2]
  circles        {center: [lat, lon], radius, points: [[lat, lon, inside]]}
                 points placed with Direct at r - 5 mm / r + 5 mm on 12 bearings, and r -/+ 1 mm on 4 more
                 bearings for radii up to 10 km; inside is 1 when the geodesic distance is <= radius.

The --margin mode replicates CircleGeometry.contains's planar distance in double precision and reports, for each
centre latitude, radius and distance, the largest |planar - geodesic| over 3,600 bearings, divided by the fitted
bound k(lat) * s^3 with k = 2.4e-16 + 1.2e-15 * tan^2(lat). CircleGeometry uses margin = 2 * k * r^3 + 1e-6 m.
"""

import json
import math
import os
import random
import sys

import geographiclib
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84
HERE = os.path.dirname(os.path.abspath(__file__))


def wrap(lon):
    return math.remainder(lon, 360.0)


def inverse_row(lat1, lon1, lat2, lon2):
    return [lat1, lon1, lat2, lon2, G.Inverse(lat1, lon1, lat2, lon2)["s12"]]


def make_inverse(rng):
    rows = []
    latitudes = [-70, -60, -50, -40, -30, -20, -10, 0, 10, 20, 30, 40, 50, 60, 70, -89.5, -80, 75, 80, 85, 89.9]
    distances = [1, 3, 10, 30, 100, 300, 1000, 3000, 10000]
    for lat in latitudes:
        for s in distances:
            lat1 = lat + rng.uniform(-0.5, 0.5) if abs(lat) < 89 else lat
            lon1 = rng.choice([rng.uniform(-180, 180), 179.9999, -179.9999])
            g = G.Direct(lat1, lon1, rng.uniform(0, 360), s)
            rows.append(inverse_row(lat1, lon1, g["lat2"], wrap(g["lon2"])))
    # Long lines, random over the globe.
    for _ in range(60):
        lat1, lat2 = math.degrees(math.asin(rng.uniform(-1, 1))), math.degrees(math.asin(rng.uniform(-1, 1)))
        rows.append(inverse_row(lat1, rng.uniform(-180, 180), lat2, rng.uniform(-180, 180)))
    # Special lines: equatorial, meridional, pole to pole, antimeridian crossings, coincident points.
    special = [
        (0, 0, 0, 90), (0, 0, 0, 179), (0, 10, 0, -10), (0, 0, 0, 1e-6),
        (10, 20, 60, 20), (-89, 0, 89, 0), (90, 0, -90, 0), (90, 0, 89.9, 123),
        (45, 179.5, 45, -179.5), (-33.9, 179.99, -33.9, -179.99), (60, -179.999, 60.001, 179.999),
        (0, 180, 0, -180), (51.5, -0.12, 51.5, -0.12), (70, 179.9, 69.95, -179.95),
        (52.2, 0.1, 40.7, -74.0), (-37.8, 144.9, 35.7, 139.7), (1.3, 103.8, -1.3, -76.3),
    ]
    rows += [inverse_row(*p) for p in special]
    return rows


def make_near_antipodal(rng):
    rows = []
    fixed = [
        (0, 0, 0, 179.7), (0, 0, 0, 179.5), (0, 0, 0.5, 179.5), (0, 0, 0, 180), (10, 0, -10, 180),
        (3.2945865652938053, -62.180191828419225, -3.318023887745823, 117.8252467449797),
        (10, 0, -10.0001, 179.8), (0.1, 0.1, 0.1, 179.6), (-1.3232, 92.4612, 1.4111, -88.1841),
        (45, 10, -45, -170.3), (85.956, 0, -85.956, 179.99),
    ]
    rows += [inverse_row(*p) for p in fixed]
    for _ in range(40):
        lat1 = rng.choice([0.0, rng.uniform(-89, 89), rng.uniform(-1, 1)])
        lon1 = rng.uniform(-180, 180)
        offset = rng.choice([0.0, rng.choice([-1, 1]) * 10 ** rng.uniform(-12, 0)])
        lat2 = max(-90.0, min(90.0, -lat1 + offset))
        lon2 = wrap(lon1 + 180 - rng.choice([0, 1e-6, 1e-3, 0.1, 0.5, 1]) * rng.random())
        rows.append(inverse_row(lat1, lon1, lat2, lon2))
    return rows


def make_direct(rng):
    rows = []
    for _ in range(80):
        lat1 = rng.uniform(-80, 80)
        lon1 = rng.choice([rng.uniform(-180, 180), 179.99, -179.99])
        azi = rng.uniform(-180, 180)
        s = rng.choice([0.5, 10, 1000, 10000, 50000, 1e6, 1.5e7])
        g = G.Direct(lat1, lon1, azi, s)
        rows.append([lat1, lon1, azi, s, g["lat2"], wrap(g["lon2"])])
    return rows


def make_circles(rng):
    circles = []
    latitudes = [-74, -70, -55, -40, -25, -10, 0, 10, 25, 40, 55, 70, 72.5]
    radii = [1, 10, 100, 1000, 5000, 10000, 50000]
    for lat in latitudes:
        for radius in radii:
            center_lon = rng.choice([rng.uniform(-180, 180), 179.99995, -180.0, 180.0])
            points = []
            start = rng.uniform(0, 30)
            placements = [(start + 30 * i, d) for i in range(12) for d in (-0.005, 0.005)]
            if radius <= 10000:
                placements += [(start + 15 + 90 * i, d) for i in range(4) for d in (-0.001, 0.001)]
            for bearing, delta in placements:
                g = G.Direct(lat, center_lon, bearing, radius + delta)
                lat2, lon2 = g["lat2"], wrap(g["lon2"])
                s = G.Inverse(lat, center_lon, lat2, lon2)["s12"]
                inside = s <= radius
                assert inside == (delta < 0), (lat, center_lon, radius, bearing, delta, s)
                points.append([lat2, lon2, 1 if inside else 0])
            circles.append({"center": [lat, center_lon], "radius": radius, "points": points})
    return circles


def write_fixture():
    rng = random.Random(20240501)
    data = {
        "source": "geographiclib Geodesic.WGS84 (Karney 2013)",
        "geographiclibVersion": geographiclib.__version__,
        "inverse": make_inverse(rng),
        "nearAntipodal": make_near_antipodal(rng),
        "direct": make_direct(rng),
        "circles": make_circles(rng),
    }
    # One row per line keeps the file diffable; repr() of a float round-trips exactly.
    lines = ["{"]
    keys = list(data)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = data[key]
        if isinstance(value, list):
            body = ",\n".join("  " + json.dumps(row, separators=(",", ":")) for row in value)
            lines.append(f'"{key}":[\n{body}\n]{comma}')
        else:
            lines.append(f'"{key}":{json.dumps(value)}{comma}')
    lines.append("}")
    path = os.path.join(HERE, "geodesic-reference.json")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


# --- margin measurement -------------------------------------------------------------------------------------------

A, F = 6378137.0, 1 / 298.257223563
E2 = F * (2 - F)
K = math.pi / 180


def planar_distance(lat0, lon0, lat, lon):
    """The same arithmetic as CircleGeometry.contains (mid-latitude plane, Taylor-expanded around lat0)."""
    p0 = lat0 * K
    s0, c0 = math.sin(p0), math.cos(p0)
    w2 = 1 - E2 * s0 * s0
    w = math.sqrt(w2)
    n0, dn0 = A / w, A * E2 * s0 * c0 / (w2 * w)
    m0, dm0 = A * (1 - E2) / (w2 * w), 3 * A * (1 - E2) * E2 * s0 * c0 / (w2 * w2 * w)
    dphi = (lat - lat0) * K
    dlon = lon - lon0
    if abs(dlon) > 180:
        dlon = math.remainder(dlon, 360)
    dlam = dlon * K
    delta = dphi / 2
    cos_mid = c0 * (1 - 0.5 * delta * delta) - s0 * delta
    x = (n0 + dn0 * delta) * cos_mid * dlam
    y = (m0 + dm0 * delta) * dphi
    return math.sqrt(x * x + y * y)


def fitted_bound(lat0, s):
    return (2.4e-16 + 1.2e-15 * math.tan(lat0 * K) ** 2) * s ** 3


def measure_margin():
    latitudes = list(range(0, 76, 3)) + [74.5, 75, -75, -45, -1]
    distances = [250, 1000, 2500, 10000, 25000, 50000, 100000, 200000, 300000]
    print("lat  distance  max|planar-geodesic| (m)  ratio to k*s^3")
    worst = {}
    for lat0 in latitudes:
        for s in distances:
            error = 0.0
            for tenth in range(3600):
                g = G.Direct(lat0, 179.9, tenth / 10 + 0.05, s)
                error = max(error, abs(planar_distance(lat0, 179.9, g["lat2"], wrap(g["lon2"])) - s))
            ratio = error / fitted_bound(lat0, s)
            worst[s] = max(worst.get(s, 0.0), ratio)
            print(f"{lat0:5.1f} {s:9.0f} {error:.3e} {ratio:.3f}")
    print("worst ratio per distance:", {s: round(r, 3) for s, r in worst.items()})


if __name__ == "__main__":
    if "--margin" in sys.argv:
        measure_margin()
    else:
        write_fixture()
