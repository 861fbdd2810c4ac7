/// A line chart as inline SVG: one or more series over shared x values, with axes, round ticks and a legend.
struct SVGLineChart {
    struct Series {
        var name: String
        var colour: String
        /// One value per x; `nil` leaves a gap.
        var values: [Double?]
    }

    var id: String
    var title: String
    var xLabel: String
    var yLabel: String
    var x: [Double]
    var series: [Series]
    var width = 600.0
    var height = 230.0

    func svg() -> String {
        let frame = SVGChartFrame(width: width, height: height, bottom: 40)
        let (left, right, top, bottom) = (frame.left, frame.right, frame.top, frame.bottom)
        let plotted = series.flatMap { $0.values.compactMap { $0 } }.filter(\.isFinite)
        // One x (a run shorter than a bucket) spans one unit, not a nanosecond: ticks 0 to 1, not six zeros.
        let first = x.first ?? 0, last = x.last ?? 1
        let xs = ChartScale(domain: (first, last > first ? last : first + 1), range: (left, width - right))
        let ys = ChartScale(values: plotted, range: (height - bottom, top))
        var out = frame.open(id: id, title: title) + frame.yGrid(ys)
        for tick in xs.ticks(6) {
            let px = SVGNumber.format(xs(tick))
            out += "<line x1=\"\(px)\" x2=\"\(px)\" y1=\"\(Int(height - bottom))\" y2=\"\(Int(height - bottom) + 4)\" class=\"axis\"/>"
            out += "<text x=\"\(px)\" y=\"\(Int(height - bottom) + 15)\" class=\"xtick\">\(PageText.compact(tick))</text>\n"
        }
        out += "<line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(Int(height - bottom))\" y2=\"\(Int(height - bottom))\" class=\"axis\"/>"
        out += "<line x1=\"\(Int(left))\" x2=\"\(Int(left))\" y1=\"\(Int(top))\" y2=\"\(Int(height - bottom))\" class=\"axis\"/>\n"
        out += frame.axisLabels(x: xLabel, y: yLabel, xLabelRaise: 6)
        for line in series {
            out += "<path class=\"series\" stroke=\"\(line.colour)\" d=\"\(path(line.values, xs, ys))\"><title>\(PageText.escape(line.name))</title></path>\n"
            if x.count == 1, let value = line.values.first ?? nil {
                out += "<circle cx=\"\(SVGNumber.format(xs(x[0])))\" cy=\"\(SVGNumber.format(ys(value)))\" r=\"3\" fill=\"\(line.colour)\"/>"
            }
        }
        out += frame.legend(series.map { ($0.name, $0.colour) })
        return out + "</svg>\n"
    }

    private func path(_ values: [Double?], _ xs: ChartScale, _ ys: ChartScale) -> String {
        var d = ""
        var drawing = false
        for (i, value) in values.enumerated() where i < x.count {
            guard let value, value.isFinite else {
                drawing = false
                continue
            }
            d += (drawing ? "L" : "M") + SVGNumber.format(xs(x[i])) + "," + SVGNumber.format(ys(value))
            drawing = true
        }
        return d.isEmpty ? "M0,0" : d
    }
}

/// A bar chart as inline SVG: one bar per labelled category, optionally in several coloured groups side by side.
struct SVGBarChart {
    var id: String
    var title: String
    var xLabel: String
    var yLabel: String
    var categories: [String]
    /// One group per series (e.g. a profile), each with one value per category.
    var groups: [(name: String, colour: String, values: [Double])]
    var width = 600.0
    var height = 240.0

    func svg() -> String {
        let frame = SVGChartFrame(width: width, height: height, bottom: 52)
        let (left, right, top, bottom) = (frame.left, frame.right, frame.top, frame.bottom)
        let ys = ChartScale(values: groups.flatMap(\.values), range: (height - bottom, top))
        let slot = (width - left - right) / Double(max(1, categories.count))
        let barWidth = max(1, slot * 0.8 / Double(max(1, groups.count)))
        var out = frame.open(id: id, title: title) + frame.yGrid(ys)
        let labelEvery = max(1, Int((Double(categories.count) * 46 / (width - left - right)).rounded(.up)))
        for (c, category) in categories.enumerated() {
            for (g, group) in groups.enumerated() where c < group.values.count {
                let value = group.values[c]
                let x = left + Double(c) * slot + slot * 0.1 + Double(g) * barWidth
                let y = ys(max(0, value))
                out += "<rect class=\"bar\" x=\"\(SVGNumber.format(x))\" y=\"\(SVGNumber.format(y))\" "
                out += "width=\"\(SVGNumber.format(barWidth))\" height=\"\(SVGNumber.format(max(0, ys(0) - y)))\" "
                out += "fill=\"\(group.colour)\"><title>\(PageText.escape("\(group.name) \(category): \(PageText.decimal(value, 3))"))</title></rect>"
            }
            if c % labelEvery == 0 {
                out += "<text x=\"\(SVGNumber.format(left + (Double(c) + 0.5) * slot))\" y=\"\(Int(height - bottom) + 14)\" class=\"xtick\">\(PageText.escape(category))</text>\n"
            }
        }
        out += "<line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(Int(height - bottom))\" y2=\"\(Int(height - bottom))\" class=\"axis\"/>"
        out += frame.axisLabels(x: xLabel, y: yLabel, xLabelRaise: 8)
        out += frame.legend(groups.map { ($0.name, $0.colour) })
        return out + "</svg>\n"
    }
}

/// Coordinates in SVG text: one decimal, no trailing `.0`.
enum SVGNumber {
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return magnitude % 10 == 0 ? sign + String(magnitude / 10) : sign + "\(magnitude / 10).\(magnitude % 10)"
    }
}
