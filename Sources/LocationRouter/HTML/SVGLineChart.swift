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
        let left = 58.0, right = 12.0, top = 28.0, bottom = 40.0
        let plotted = series.flatMap { $0.values.compactMap { $0 } }.filter(\.isFinite)
        let xs = ChartScale(domain: (x.first ?? 0, max(x.last ?? 1, (x.first ?? 0) + 1e-9)), range: (left, width - right))
        let ys = ChartScale(values: plotted, range: (height - bottom, top))
        var out = """
            <svg class="chart" id="\(PageText.escape(id))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" width="\(Int(width))" height="\(Int(height))" role="img">
            <title>\(PageText.escape(title))</title>
            <text x="\(Int(left))" y="16" class="chart-title">\(PageText.escape(title))</text>\n
            """
        for tick in ys.ticks() {
            let y = SVGNumber.format(ys(tick))
            out += "<line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(y)\" y2=\"\(y)\" class=\"grid\"/>"
            out += "<text x=\"\(Int(left) - 4)\" y=\"\(y)\" class=\"ytick\">\(PageText.compact(tick))</text>\n"
        }
        for tick in xs.ticks(6) {
            let px = SVGNumber.format(xs(tick))
            out += "<line x1=\"\(px)\" x2=\"\(px)\" y1=\"\(Int(height - bottom))\" y2=\"\(Int(height - bottom) + 4)\" class=\"axis\"/>"
            out += "<text x=\"\(px)\" y=\"\(Int(height - bottom) + 15)\" class=\"xtick\">\(PageText.compact(tick))</text>\n"
        }
        out += "<line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(Int(height - bottom))\" y2=\"\(Int(height - bottom))\" class=\"axis\"/>"
        out += "<line x1=\"\(Int(left))\" x2=\"\(Int(left))\" y1=\"\(Int(top))\" y2=\"\(Int(height - bottom))\" class=\"axis\"/>\n"
        out += "<text x=\"\(Int((left + width - right) / 2))\" y=\"\(Int(height) - 6)\" class=\"xlabel\">\(PageText.escape(xLabel))</text>"
        out += "<text x=\"12\" y=\"\(Int((top + height - bottom) / 2))\" class=\"ylabel\" "
        out += "transform=\"rotate(-90 12 \(Int((top + height - bottom) / 2)))\">\(PageText.escape(yLabel))</text>\n"
        for line in series {
            out += "<path class=\"series\" stroke=\"\(line.colour)\" d=\"\(path(line.values, xs, ys))\"><title>\(PageText.escape(line.name))</title></path>\n"
            if x.count == 1, let value = line.values.first ?? nil {
                out += "<circle cx=\"\(SVGNumber.format(xs(x[0])))\" cy=\"\(SVGNumber.format(ys(value)))\" r=\"3\" fill=\"\(line.colour)\"/>"
            }
        }
        var legendX = width - right - series.reduce(0) { $0 + 22 + Double($1.name.count) * 6.5 }
        for line in series where series.count > 1 {
            out += "<rect x=\"\(Int(legendX))\" y=\"8\" width=\"10\" height=\"10\" fill=\"\(line.colour)\"/>"
            out += "<text x=\"\(Int(legendX) + 14)\" y=\"17\" class=\"legend\">\(PageText.escape(line.name))</text>"
            legendX += 22 + Double(line.name.count) * 6.5
        }
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
        let left = 58.0, right = 12.0, top = 28.0, bottom = 52.0
        let ys = ChartScale(values: groups.flatMap(\.values), range: (height - bottom, top))
        let slot = (width - left - right) / Double(max(1, categories.count))
        let barWidth = max(1, slot * 0.8 / Double(max(1, groups.count)))
        var out = """
            <svg class="chart" id="\(PageText.escape(id))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" width="\(Int(width))" height="\(Int(height))" role="img">
            <title>\(PageText.escape(title))</title>
            <text x="\(Int(left))" y="16" class="chart-title">\(PageText.escape(title))</text>\n
            """
        for tick in ys.ticks() {
            let y = SVGNumber.format(ys(tick))
            out += "<line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(y)\" y2=\"\(y)\" class=\"grid\"/>"
            out += "<text x=\"\(Int(left) - 4)\" y=\"\(y)\" class=\"ytick\">\(PageText.compact(tick))</text>\n"
        }
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
        out += "<text x=\"\(Int((left + width - right) / 2))\" y=\"\(Int(height) - 8)\" class=\"xlabel\">\(PageText.escape(xLabel))</text>"
        out += "<text x=\"12\" y=\"\(Int((top + height - bottom) / 2))\" class=\"ylabel\" "
        out += "transform=\"rotate(-90 12 \(Int((top + height - bottom) / 2)))\">\(PageText.escape(yLabel))</text>\n"
        var legendX = width - right - groups.reduce(0) { $0 + 22 + Double($1.name.count) * 6.5 }
        for group in groups where groups.count > 1 {
            out += "<rect x=\"\(Int(legendX))\" y=\"8\" width=\"10\" height=\"10\" fill=\"\(group.colour)\"/>"
            out += "<text x=\"\(Int(legendX) + 14)\" y=\"17\" class=\"legend\">\(PageText.escape(group.name))</text>"
            legendX += 22 + Double(group.name.count) * 6.5
        }
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
