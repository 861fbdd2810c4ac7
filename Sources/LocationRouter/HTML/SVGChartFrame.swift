/// What every chart of the page draws the same way: the `<svg>` element with its title, the horizontal grid with
/// the y ticks, the axis labels and the legend. Line and bar charts draw their data inside it.
struct SVGChartFrame {
    var width: Double
    var height: Double
    var left = 58.0
    var right = 12.0
    var top = 28.0
    var bottom: Double

    /// The opening `<svg …>` with its accessible title and the visible one.
    func open(id: String, title: String) -> String {
        """
        <svg class="chart" id="\(PageText.escape(id))" \
        viewBox="0 0 \(Int(width)) \(Int(height))" width="\(Int(width))" height="\(Int(height))" role="img">
        <title>\(PageText.escape(title))</title>
        <text x="\(Int(left))" y="16" class="chart-title">\(PageText.escape(title))</text>\n
        """
    }

    /// A grid line and a label at each of the y scale's round ticks.
    func yGrid(_ ys: ChartScale) -> String {
        var out = ""
        for tick in ys.ticks() {
            let y = SVGNumber.format(ys(tick))
            out += "<line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(y)\" y2=\"\(y)\" class=\"grid\"/>"
            out += "<text x=\"\(Int(left) - 4)\" y=\"\(y)\" class=\"ytick\">\(PageText.compact(tick))</text>\n"
        }
        return out
    }

    /// The x axis's label, `xLabelRaise` pixels above the bottom edge, and the y axis's, turned upright.
    func axisLabels(x xLabel: String, y yLabel: String, xLabelRaise: Int) -> String {
        var out = "<text x=\"\(Int((left + width - right) / 2))\" y=\"\(Int(height) - xLabelRaise)\" class=\"xlabel\">\(PageText.escape(xLabel))</text>"
        out += "<text x=\"12\" y=\"\(Int((top + height - bottom) / 2))\" class=\"ylabel\" "
        out += "transform=\"rotate(-90 12 \(Int((top + height - bottom) / 2)))\">\(PageText.escape(yLabel))</text>\n"
        return out
    }

    /// A swatch and a name per entry, right-aligned along the top; nothing for a single entry.
    func legend(_ entries: [(name: String, colour: String)]) -> String {
        guard entries.count > 1 else { return "" }
        var out = ""
        var legendX = width - right - entries.reduce(0) { $0 + 22 + Double($1.name.count) * 6.5 }
        for entry in entries {
            out += "<rect x=\"\(Int(legendX))\" y=\"8\" width=\"10\" height=\"10\" fill=\"\(entry.colour)\"/>"
            out += "<text x=\"\(Int(legendX) + 14)\" y=\"17\" class=\"legend\">\(PageText.escape(entry.name))</text>"
            legendX += 22 + Double(entry.name.count) * 6.5
        }
        return out
    }
}
