import Foundation

/// A local equirectangular projection around the centre of what the map shows, fitted to a pixel box: metres
/// east and north of the centre (WGS84 degree lengths at its latitude), scaled alike on both axes, north up.
struct MapProjection {
    let centerLatitude: Double
    let centerLongitude: Double
    let metresPerDegreeLatitude: Double
    let metresPerDegreeLongitude: Double
    /// Pixels per metre.
    let scale: Double
    let width: Double
    let height: Double
    let margin = 20.0

    /// Fits the bounds (degrees) into `width` pixels wide and at most `maximumHeight` high.
    init?(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double, width: Double, maximumHeight: Double) {
        guard minLat <= maxLat, minLon <= maxLon, [minLat, maxLat, minLon, maxLon].allSatisfy(\.isFinite) else {
            return nil
        }
        centerLatitude = (minLat + maxLat) / 2
        centerLongitude = (minLon + maxLon) / 2
        let phi = centerLatitude * .pi / 180
        metresPerDegreeLatitude = 111_132.954 - 559.822 * cos(2 * phi) + 1.175 * cos(4 * phi)
        metresPerDegreeLongitude = max(1, 111_412.84 * cos(phi) - 93.5 * cos(3 * phi))
        let spanX = max(50, (maxLon - minLon) * metresPerDegreeLongitude)
        let spanY = max(50, (maxLat - minLat) * metresPerDegreeLatitude)
        let inner = width - 2 * margin
        var fitted = inner / spanX
        if spanY * fitted > maximumHeight - 2 * margin { fitted = (maximumHeight - 2 * margin) / spanY }
        scale = fitted
        self.width = width
        height = max(240, spanY * fitted + 2 * margin)
    }

    /// Metres east and north of the centre.
    func metres(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        ((longitude - centerLongitude) * metresPerDegreeLongitude, (latitude - centerLatitude) * metresPerDegreeLatitude)
    }

    /// The pixel of a position.
    func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let m = metres(latitude: latitude, longitude: longitude)
        return (width / 2 + m.east * scale, height / 2 - m.north * scale)
    }

    /// A round length (1, 2 or 5 × 10^k metres) about a fifth of the map wide, and its label.
    var scaleBar: (metres: Double, pixels: Double, label: String) {
        let target = width / 5 / scale
        // The largest of 1, 2, 5 × 10^k metres that is at most 1.5 × the target.
        var length = 1.0
        var power = 1.0
        while power <= target * 1.5 {
            for factor in [1.0, 2, 5] where factor * power <= target * 1.5 { length = factor * power }
            power *= 10
        }
        let label = length >= 1000 ? PageText.decimal(length / 1000, 1) + " km" : PageText.decimal(length, 0) + " m"
        return (length, length * scale, label)
    }
}
