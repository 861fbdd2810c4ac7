extension ReportPage {
    /// The page's only stylesheet: system fonts, no external resource.
    static let stylesheet = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2329;background:#f6f7f9;margin:0;padding:0 24px 24px}
        header{padding:16px 0 4px}h1{font-size:22px;margin:0}h2{font-size:17px;margin:0 0 8px}h3{font-size:14px;margin:14px 0 6px}
        .subtitle{color:#56606b;margin:4px 0 0}section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:14px 16px;margin:14px 0;overflow-x:auto}
        table{border-collapse:collapse}th,td{padding:3px 10px;text-align:left;vertical-align:top;font-variant-numeric:tabular-nums}
        table.summary th{color:#56606b;font-weight:600;white-space:nowrap}table.grid td,table.grid th{border-bottom:1px solid #e8ebef}
        table.grid td.num,table.grid th.num{text-align:right}th.profile-head{text-align:center;border-bottom:2px solid #8a949e}
        tr.pass td{background:#e8f5e9;color:#1b5e20}tr.fail td{background:#ffebee;color:#b71c1c;font-weight:600}
        .pass-text{color:#1b5e20;font-weight:600}.fail-text{color:#b71c1c;font-weight:600}
        .badge{font-size:12px;padding:2px 8px;border-radius:10px;vertical-align:middle;margin-left:6px}
        .badge.pass{background:#c8e6c9;color:#1b5e20}.badge.fail{background:#ffcdd2;color:#b71c1c}.badge.warn{background:#ffe0b2;color:#e65100}
        .charts{display:flex;flex-wrap:wrap;gap:10px}.note{color:#56606b;font-size:12.5px;margin:6px 0 0}
        svg text{font:11px system-ui,sans-serif;fill:#3c4650}.chart-title{font-weight:600;font-size:12px;fill:#1d2329}
        .ytick{text-anchor:end;dominant-baseline:middle}.xtick{text-anchor:middle}.xlabel,.ylabel{text-anchor:middle;fill:#56606b}
        .grid{stroke:#eceff2}.axis{stroke:#8a949e}.series{fill:none;stroke-width:1.6}
        .map-frame{overflow:auto}svg.map,svg.chart{max-width:100%;height:auto}.map-ground{fill:#fbfbf8;stroke:#dde1e6}.region{fill:#ef6c00;stroke:#ef6c00;stroke-opacity:0.45;stroke-width:0.7}
        .track{fill:none;stroke-width:1.3;stroke-opacity:0.75;stroke-linejoin:round}.marker{stroke:#fff;stroke-width:0.7}
        .scale-bar{fill:none;stroke:#1d2329;stroke-width:2}.map-label-ground{fill:#fff;fill-opacity:0.8}.map-text{font-size:12px}
        .map-north{font-size:13px;font-weight:600;text-anchor:end}
        .legend-list{list-style:none;padding:0;margin:0 0 8px;display:flex;flex-wrap:wrap;gap:14px;font-size:12.5px}
        .swatch{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px;border-radius:2px}.swatch.dot{border-radius:6px}
        footer{color:#8a949e;font-size:12px;margin-top:10px}code{font-size:12.5px}
        """
}
