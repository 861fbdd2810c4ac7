#!/usr/bin/env python3
"""Reference fixture for ReferenceTrackTests: real GPX tracks, regions around them, and the events they must cause.

Writes, next to this script:
  samples.ndjson          the timed track points of the chosen GPX files, one device per file, interleaved by time;
                          lat/lon are copied as the GPX text has them, so both sides read identical doubles
  regions.geojson         circles and polygons built around the tracks (see build_regions)
  expected-events.ndjson  the enter/exit events of the `exact` profile, computed here independently of the product:
                          circles with geographiclib (Karney's algorithm, Geodesic.WGS84.Inverse(...)['s12'] <= r),
                          polygons with an exact (rational) even-odd test written below, boundary inside

    pip install geographiclib==2.1
    python3 make-reference.py [GPX_DIR]       # GPX_DIR defaults to the copies in Tests/CLITests/Fixtures/gpx

The output is deterministic: running it again rewrites identical files.
"""

import datetime
import json
import math
import os
import re
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import geographiclib
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84
HERE = os.path.dirname(os.path.abspath(__file__))
GPX_DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "CLITests", "Fixtures", "gpx")

# (device, file, how many timed points to keep at most)
TRACKS = [
    ("korita", "gpxpy__korita-zbevnica.gpx", None),
    ("cerknicko", "gpxpy__cerknicko-jezero.gpx", None),
    ("visnjan", "gpxgo__visnjan.gpx", None),
    ("trackpointonly", "coregpx__GPXTest-TrackPointOnly.gpx", 1750),
]
SAMPLE_CAP = 3000
# Every device must stay within the exact profile's 20 region slots, or registrations would fail.
SLOT_LIMIT = 20
# Points not placed on purpose must be at least this far from a circle's boundary (metres) and from a polygon's edges
# (degrees), so that the product's documented accuracy (Vincenty ~0.1 mm, polygon tolerance 1e-10 deg) cannot matter.
CIRCLE_CLEARANCE = 1e-3
POLYGON_CLEARANCE = 1e-8

JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z")
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\Z")


# MARK: Tracks


def local(tag):
    return tag.rsplit("}", 1)[-1]


def read_track(path):
    """The track points of a GPX file as (lat_text, lon_text, time_text), untimed ones dropped, in time order."""
    points = []
    for element in ET.parse(path).getroot().iter():
        if local(element.tag) != "trkpt":
            continue
        time = next((child.text.strip() for child in element if local(child.tag) == "time" and child.text), None)
        if time is None:
            continue
        lat, lon = element.get("lat").strip(), element.get("lon").strip()
        assert JSON_NUMBER.match(lat) and JSON_NUMBER.match(lon), (path, lat, lon)
        assert ISO_TIME.match(time), (path, time)
        points.append((lat, lon, time))
    # Stable: points with equal times keep their file order.
    points.sort(key=lambda point: parse_time(point[2]))
    return points


def parse_time(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def format_time(moment):
    text = moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        text += ("." + "%06d" % moment.microsecond).rstrip("0")
    return text + "Z"


class Sample:
    def __init__(self, device, lat_text, lon_text, time_text):
        self.device = device
        self.lat_text, self.lon_text, self.time_text = lat_text, lon_text, time_text
        self.lat, self.lon = float(lat_text), float(lon_text)
        self.time = parse_time(time_text)


def load_samples():
    by_device = {}
    for device, name, limit in TRACKS:
        points = read_track(os.path.join(GPX_DIR, name))
        if limit is not None:
            points = points[:limit]
        by_device[device] = [Sample(device, *point) for point in points]
    merged = [sample for device, _, _ in TRACKS for sample in by_device[device]]
    # Interleave by time; ties keep device order, then each device's own order.
    merged.sort(key=lambda sample: sample.time)
    assert len(merged) <= SAMPLE_CAP, len(merged)
    return by_device, merged


# MARK: Reference geometry


def distance(center_lat, center_lon, lat, lon):
    return G.Inverse(center_lat, center_lon, lat, lon)["s12"]


def on_segment(x, y, ax, ay, bx, by):
    """Exactly on the closed segment (all arguments are Fractions)."""
    if (bx - ax) * (y - ay) - (by - ay) * (x - ax) != 0:
        return False
    return min(ax, bx) <= x <= max(ax, bx) and min(ay, by) <= y <= max(ay, by)


def polygon_contains(polygons, lat, lon):
    """Union of polygons; within a polygon, even-odd over all its rings; any boundary counts as inside. Exact."""
    x, y = Fraction(lon), Fraction(lat)
    for rings in polygons:
        inside = False
        for ring in rings:
            vertices = [(Fraction(p[0]), Fraction(p[1])) for p in ring]
            if len(vertices) > 1 and vertices[0] == vertices[-1]:
                vertices = vertices[:-1]
            for k in range(len(vertices)):
                (ax, ay), (bx, by) = vertices[k - 1], vertices[k]
                if on_segment(x, y, ax, ay, bx, by):
                    return True
                if (ay > y) != (by > y) and x < ax + (bx - ax) * (y - ay) / (by - ay):
                    inside = not inside
        if inside:
            return True
    return False


def segment_distance(x, y, ax, ay, bx, by):
    """Planar distance (degrees) from (x, y) to a segment, in floating point: for the clearance check only."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / length2))
    return math.hypot(ax + t * dx - x, ay + t * dy - y)


def polygon_clearance(polygons, lat, lon):
    best = math.inf
    for rings in polygons:
        for ring in rings:
            for k in range(1, len(ring)):
                (ax, ay), (bx, by) = ring[k - 1], ring[k]
                best = min(best, segment_distance(lon, lat, ax, ay, bx, by))
    return best


class RegionSpec:
    def __init__(self, rid, kind, devices=None, notify_on_entry=True, notify_on_exit=True, note=""):
        self.id, self.kind, self.devices = rid, kind, devices
        self.notify_on_entry, self.notify_on_exit = notify_on_entry, notify_on_exit
        self.note = note
        self.center = self.radius = self.polygons = None
        self.designed = set()  # (device, sample index) placed near or on the boundary on purpose
        self.boundary_case = None  # written to properties.boundaryCase for the Swift test

    def contains(self, sample):
        if self.kind == "circle":
            return distance(self.center[0], self.center[1], sample.lat, sample.lon) <= self.radius
        return polygon_contains(self.polygons, sample.lat, sample.lon)

    def monitored_by(self, device):
        return self.devices is None or device in self.devices

    def feature(self):
        properties = {}
        if self.kind == "circle":
            geometry = {"type": "Point", "coordinates": [self.center[1], self.center[0]]}
            properties["radius"] = self.radius
        elif len(self.polygons) == 1:
            geometry = {"type": "Polygon", "coordinates": self.polygons[0]}
        else:
            geometry = {"type": "MultiPolygon", "coordinates": self.polygons}
        if self.devices is not None:
            properties["devices"] = self.devices
        if not self.notify_on_entry:
            properties["notifyOnEntry"] = False
        if not self.notify_on_exit:
            properties["notifyOnExit"] = False
        if self.note:
            properties["note"] = self.note
        if self.boundary_case:
            properties["boundaryCase"] = self.boundary_case
        return {"type": "Feature", "id": self.id, "geometry": geometry, "properties": properties}


# MARK: Building regions


def circle(rid, center, radius, **options):
    spec = RegionSpec(rid, "circle", **options)
    spec.center, spec.radius = center, float(radius)
    return spec


def polygon(rid, polygons, **options):
    spec = RegionSpec(rid, "polygon", **options)
    spec.polygons = polygons
    return spec


def step_index(track, fraction, minimum_step=3.0):
    """A point near `fraction` of the track whose previous point is at least `minimum_step` metres away."""
    start = max(1, int(len(track) * fraction))
    for k in list(range(start, len(track) - 1)) + list(range(start - 1, 0, -1)):
        if G.Inverse(track[k - 1].lat, track[k - 1].lon, track[k].lat, track[k].lon)["s12"] >= minimum_step:
            return k
    raise RuntimeError("no point with a long enough step")


def boundary_case(device, point, event, offset=None, on=None):
    """The event a designed point must cause: the Swift test checks that it is expected and produced."""
    case = {"device": device, "event": event, "time": format_time(point.time), "lat": point.lat, "lon": point.lon}
    if offset is not None:
        case["offset"] = offset  # geodesic distance minus radius, metres
    if on is not None:
        case["on"] = on
    return case


def near_boundary_circle(rid, track, device, fraction, radius, offset, log):
    """A circle whose boundary passes `offset` metres from a track point (negative: the point is inside).

    The centre is put ahead of the point along its direction of travel when the point is inside (so the previous
    point is outside: the `enter` happens exactly at this point), behind it when outside (an `exit` at this point).
    """
    k = step_index(track, fraction)
    previous, point = track[k - 1], track[k]
    heading = G.Inverse(previous.lat, previous.lon, point.lat, point.lon)["azi2"]
    azimuth = heading if offset < 0 else heading + 180.0
    direct = G.Direct(point.lat, point.lon, azimuth, radius + offset)
    center = (direct["lat2"], direct["lon2"])
    spec = circle(rid, center, radius, devices=[device], note="boundary %+g m from %s sample %d" % (offset, device, k))
    spec.designed.add((device, k))
    spec.boundary_case = boundary_case(device, point, "enter" if offset < 0 else "exit", offset=offset)
    actual = distance(center[0], center[1], point.lat, point.lon)
    assert abs(actual - (radius + offset)) < 1e-6, (rid, actual)
    assert spec.contains(previous) != spec.contains(point), (rid, "the event must hinge on the designed point")
    log.append(
        "%-28s r = %7.1f m  %s sample %4d (lat %s, lon %s, %s): s12 = %.9f m, s12 - r = %+.6f m (%s)"
        % (rid, radius, device, k, point.lat_text, point.lon_text, point.time_text, actual, actual - radius,
           "inside" if actual <= radius else "outside"))
    return spec


def crossing_circle(rid, track, device, radii, log, **options):
    """A circle around some track point that the track enters and leaves as many times as possible."""
    best = None
    step = max(1, len(track) // 40)
    for c in range(step // 2, len(track), step):
        direct = G.Direct(track[c].lat, track[c].lon, 37.0, 7.3)
        center = (direct["lat2"], direct["lon2"])
        distances = [distance(center[0], center[1], p.lat, p.lon) for p in track]
        for radius in radii:
            if min(abs(d - radius) for d in distances) < 0.05:
                continue
            states = [d <= radius for d in distances]
            changes = sum(1 for a, b in zip(states, states[1:]) if a != b)
            if best is None or changes > best[0]:
                best = (changes, center, radius)
    changes, center, radius = best
    assert changes >= 2, (rid, changes)
    log.append("%-28s r = %7.1f m  %s crosses its boundary %d times" % (rid, radius, device, changes))
    return circle(rid, center, radius, **options)


def metres_to_degrees(lat):
    """Degrees of (lon, lat) per metre east and north at `lat` (approximate, for shaping polygons only)."""
    north = 1.0 / 111_132.0
    east = north / math.cos(math.radians(lat))
    return east, north


def ring_around(lat, lon, half_size, sides, rotation):
    """A closed ring of `sides` vertices on a circle of `half_size` metres around (lat, lon), as [lon, lat]."""
    east, north = metres_to_degrees(lat)
    ring = []
    for k in range(sides):
        angle = math.radians(rotation + 360.0 * k / sides)
        ring.append([lon + half_size * math.cos(angle) * east, lat + half_size * math.sin(angle) * north])
    ring.append(list(ring[0]))
    return ring


def holed_polygon(rid, track, device, fraction, outer, inner, log):
    k = int(len(track) * fraction)
    m = track[k]
    rings = [ring_around(m.lat, m.lon, outer, 6, 17.0), ring_around(m.lat, m.lon, inner, 4, 29.0)[::-1]]
    spec = polygon(rid, [rings], devices=[device], note="hexagon with a square hole around %s sample %d" % (device, k))
    log.append("%-28s polygon with a hole around %s sample %d" % (rid, device, k))
    return spec


def multi_polygon(rid, track, device, log):
    """Two disjoint parts on the track: a pentagon with a triangular hole, and a triangle further on."""

    def bounds(part):
        ring = part[0]
        return (min(p[0] for p in ring), max(p[0] for p in ring), min(p[1] for p in ring), max(p[1] for p in ring))

    i = int(len(track) * 0.22)
    a = track[i]
    first = [ring_around(a.lat, a.lon, 180.0, 5, 11.0), ring_around(a.lat, a.lon, 45.0, 3, 70.0)[::-1]]
    box = bounds(first)
    # The first later point whose triangle does not overlap the pentagon, so union and global even-odd agree.
    for j in range(int(len(track) * 0.71), len(track)):
        b = track[j]
        second = [ring_around(b.lat, b.lon, 120.0, 3, -23.0)]
        other = bounds(second)
        if box[1] < other[0] or other[1] < box[0] or box[3] < other[2] or other[3] < box[2]:
            break
    else:
        raise RuntimeError(rid + ": no place for a disjoint second part")
    log.append("%-28s MultiPolygon: pentagon with a hole around %s sample %d + triangle around sample %d"
               % (rid, device, i, j))
    return polygon(rid, [first, second], devices=[device], note="two disjoint parts on the track of %s" % device)


def edge_fence(rid, track, device, fraction, log):
    """A rectangle whose southern or northern edge runs exactly through a track point (the point is on it)."""
    k = step_index(track, fraction)
    while track[k - 1].lat == track[k].lat:
        k += 1
    previous, point = track[k - 1], track[k]
    east, north = metres_to_degrees(point.lat)
    width, height = 150.0 * east, 80.0 * north
    # The rectangle lies on the far side of the edge from the previous point, which is therefore outside.
    other = point.lat + height if previous.lat < point.lat else point.lat - height
    west, eastern = point.lon - width, point.lon + width
    ring = [[west, point.lat], [eastern, point.lat], [eastern, other], [west, other], [west, point.lat]]
    spec = polygon(rid, [[ring]], devices=[device], note="edge through %s sample %d" % (device, k))
    spec.designed.add((device, k))
    spec.boundary_case = boundary_case(device, point, "enter", on="edge")
    assert spec.contains(point) and not spec.contains(previous), rid
    log.append("%-28s %s sample %d (lat %s, lon %s) lies exactly on an edge (latitude %r)"
               % (rid, device, k, point.lat_text, point.lon_text, point.lat))
    return spec


def vertex_fence(rid, track, device, fraction, log):
    """A triangle with a vertex exactly at a track point, opening away from the previous point."""
    k = step_index(track, fraction)
    previous, point = track[k - 1], track[k]
    east, north = metres_to_degrees(point.lat)
    # Direction of travel in metres east/north.
    dx, dy = (point.lon - previous.lon) / east, (point.lat - previous.lat) / north
    length = math.hypot(dx, dy)
    dx, dy = dx / length, dy / length
    ring = [[point.lon, point.lat]]
    for turn in (-35.0, 35.0):
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        ring.append([point.lon + 200.0 * (dx * c - dy * s) * east, point.lat + 200.0 * (dx * s + dy * c) * north])
    ring.append([point.lon, point.lat])
    spec = polygon(rid, [[ring]], devices=[device], note="vertex at %s sample %d" % (device, k))
    spec.designed.add((device, k))
    spec.boundary_case = boundary_case(device, point, "enter", on="vertex")
    assert spec.contains(point) and not spec.contains(previous), rid
    log.append("%-28s %s sample %d (lat %s, lon %s) is exactly a vertex"
               % (rid, device, k, point.lat_text, point.lon_text))
    return spec


def build_regions(by_device, log):
    shared, own, cross, twins = [], [], [], []
    small = [30.0, 45.0, 60.0, 80.0, 120.0, 160.0, 220.0, 300.0]
    large = [400.0, 600.0, 900.0, 1300.0, 2000.0, 3000.0, 5000.0]
    # Radii and offsets of the designed near-boundary circles, per device: (fraction, radius, offset in metres).
    designs = {
        "korita": [(0.31, 30.0, -0.01), (0.47, 250.0, +0.01), (0.63, 1000.0, -0.001), (0.82, 5000.0, +0.002)],
        "cerknicko": [(0.28, 75.0, +0.01), (0.44, 500.0, -0.01), (0.66, 2000.0, +0.002), (0.85, 40.0, -0.001)],
        "visnjan": [(0.25, 150.0, -0.01), (0.52, 30.0, +0.01), (0.68, 3000.0, -0.001), (0.86, 800.0, +0.002)],
        "trackpointonly": [(0.19, 1500.0, +0.01), (0.37, 60.0, -0.01), (0.58, 400.0, +0.002), (0.77, 4000.0, -0.001)],
    }
    for index, (device, _, _) in enumerate(TRACKS):
        track = by_device[device]
        options = {}
        if index == 1:
            options["notify_on_exit"] = False
        loop = crossing_circle("%s-loop" % device, track, device, small, log, **options)
        shared.append(loop)
        twin = circle("%s-loop-twin" % device, loop.center, loop.radius, devices=[device],
                      note="same circle as %s, later in the file" % loop.id)
        twins.append(twin)
        for fraction, radius, offset in designs[device]:
            label = ("m" if offset < 0 else "p") + ("%gcm" % (abs(offset) * 100) if abs(offset) >= 0.01
                                                   else "%gmm" % (abs(offset) * 1000))
            own.append(near_boundary_circle("%s-r%g-%s" % (device, radius, label), track, device, fraction, radius,
                                            offset, log))
        big_options = {"devices": [device]}
        if index == 2:
            big_options["notify_on_entry"] = False
        own.append(crossing_circle("%s-wide" % device, track, device, large, log, **big_options))
        own.append(holed_polygon("%s-holed" % device, track, device, 0.4 if index % 2 else 0.55, 250.0, 70.0, log))
        own.append(multi_polygon("%s-multi" % device, track, device, log))
        if index % 2 == 0:
            own.append(edge_fence("%s-edge" % device, track, device, 0.58 if index else 0.38, log))
        else:
            own.append(vertex_fence("%s-vertex" % device, track, device, 0.49, log))
    # A region the visnjan track crosses many times, but monitored only by korita (and a device that never appears).
    cross.append(crossing_circle("visnjan-loop-for-korita", by_device["visnjan"], "visnjan", [100.0, 200.0, 350.0],
                                 log, devices=["korita", "nobody"]))
    return shared + own + cross + twins


# MARK: Expected events


def expected_events(regions, samples):
    events = []
    state = {}
    for sample in samples:
        monitored = [region for region in regions if region.monitored_by(sample.device)]
        now = [region.contains(sample) for region in monitored]
        before = state.get(sample.device)
        state[sample.device] = now
        if before is None:
            continue
        for region, was, inside in zip(monitored, before, now):
            if was == inside or not (region.notify_on_entry if inside else region.notify_on_exit):
                continue
            events.append({"device": sample.device, "region": region.id, "event": "enter" if inside else "exit",
                           "time": format_time(sample.time), "lat": sample.lat, "lon": sample.lon})
    return events


def check_clearance(regions, by_device):
    """Only designed points may be near a boundary; returns the smallest clearance found for the others."""
    smallest_circle, smallest_polygon = math.inf, math.inf
    for region in regions:
        for device, track in by_device.items():
            if not region.monitored_by(device):
                continue
            for k, sample in enumerate(track):
                if (device, k) in region.designed:
                    continue
                if region.kind == "circle":
                    gap = abs(distance(region.center[0], region.center[1], sample.lat, sample.lon) - region.radius)
                    assert gap >= CIRCLE_CLEARANCE, (region.id, device, k, gap)
                    smallest_circle = min(smallest_circle, gap)
                else:
                    gap = polygon_clearance(region.polygons, sample.lat, sample.lon)
                    assert gap >= POLYGON_CLEARANCE, (region.id, device, k, gap)
                    smallest_polygon = min(smallest_polygon, gap)
    return smallest_circle, smallest_polygon


def main():
    by_device, samples = load_samples()
    log = []
    regions = build_regions(by_device, log)
    assert len({region.id for region in regions}) == len(regions)
    for device in by_device:
        count = sum(region.monitored_by(device) for region in regions)
        assert count <= SLOT_LIMIT, (device, count)

    with open(os.path.join(HERE, "samples.ndjson"), "w") as out:
        for s in samples:
            out.write('{"device":"%s","lat":%s,"lon":%s,"time":"%s"}\n' % (s.device, s.lat_text, s.lon_text,
                                                                        s.time_text))
    # One feature per line; json.dumps writes floats with repr(), which round-trips every double exactly.
    with open(os.path.join(HERE, "regions.geojson"), "w") as out:
        out.write('{"type":"FeatureCollection","features":[\n')
        out.write(",\n".join(json.dumps(region.feature(), separators=(",", ":")) for region in regions))
        out.write("\n]}\n")
    events = expected_events(regions, samples)
    with open(os.path.join(HERE, "expected-events.ndjson"), "w") as out:
        for event in events:
            out.write(json.dumps(event, separators=(",", ":")) + "\n")

    smallest_circle, smallest_polygon = check_clearance(regions, by_device)
    print("geographiclib %s" % geographiclib.__version__)
    for device, track in by_device.items():
        print("device %-15s %5d samples  %s .. %s  monitors %d regions" % (
            device, len(track), track[0].time_text, track[-1].time_text,
            sum(region.monitored_by(device) for region in regions)))
    print("%d samples, %d regions, %d expected events (%d enter, %d exit)" % (
        len(samples), len(regions), len(events), sum(e["event"] == "enter" for e in events),
        sum(e["event"] == "exit" for e in events)))
    print("regions built on purpose near or on a boundary:")
    for line in log:
        print("  " + line)
    print("events per region:")
    for region in regions:
        mine = [e for e in events if e["region"] == region.id]
        print("  %-28s %3d" % (region.id, len(mine)))
    print("other points: at least %.4f m from every circle boundary, %.3g deg from every polygon edge"
          % (smallest_circle, smallest_polygon))


if __name__ == "__main__":
    main()
