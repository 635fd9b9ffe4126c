import DecafDiagnosis

/// The run as one self-contained HTML page (`--html FILE`): the summary, the diagnosis's defects
/// (when the suite has one), a table of cases per spec section, and each case's verdict with its
/// reason, the requirements' text and the bytes both ways; `appendix`, HTML of the caller's
/// (a picture), after the summary.
public enum HTMLReport {
    public static func render(_ run: ConformanceRun, appendix: String = "") -> String {
        let escape = MarkupEscaping.escape
        let counts = run.counts
        var html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <title>\(run.tool): \(escape(run.target))</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:72em}
        h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
        table{border-collapse:collapse;width:100%;font-size:.9em}td,th{padding:.25em .5em;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
        .v{font-weight:bold;white-space:nowrap}.pass{color:#17692d}.pass-non-strict{color:#8a6d00}.fail,.timeout{color:#b00020}.unsupported{color:#666}.harness-error{color:#6a1b9a}
        .tiles{display:flex;gap:1em;flex-wrap:wrap}.tile{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;min-width:7em}.tile b{display:block;font-size:1.6em}
        pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:.8em}details{margin:.5em 0}summary{cursor:pointer}
        </style></head><body>
        <h1>\(run.tool) \(run.kind.rawValue): \(escape(run.target))</h1>
        <p>\(escape(run.suiteVersion)), catalog checksum <code>\(run.catalogChecksum)</code>\(run.identity.map { ", target version \($0.version), features \(escape("\($0.features)")) (\(escape($0.note)))" } ?? "")</p>
        <p id="summary"><strong>\(escape(run.summaryLine))</strong>; exit status \(run.exitStatus)</p>
        \(run.stop.map { "<p id=\"incomplete\" class=\"fail\">This report is incomplete: \(escape($0.description)); \(run.planned - run.results.count) of \(run.planned) cases did not run.</p>" } ?? "")
        <div class="tiles">
        """
        for kind in VerdictKind.allCases {
            html += "<div class=\"tile \(kind.rawValue)\"><b>\(counts[kind] ?? 0)</b>\(kind.rawValue)</div>"
        }
        html += "</div>\n"
        if let diagnosis = run.diagnosis, !diagnosis.defects.isEmpty {
            html += "<h2 id=\"diagnosis\">\(escape(diagnosis.headline))</h2>\n<ol>\n"
            for defect in diagnosis.defects {
                let evidence = defect.evidence
                html += "<li><b>\(escape(defect.name))</b>: \(escape(defect.cause)) (\(defect.requirements.map(\.rawValue).joined(separator: ", ")))<br>"
                html += "explains \(defect.explains.count) failures; evidence: <a href=\"#\(escape(evidence.caseID))\">\(escape(evidence.caseID))</a> "
                html += "(\(evidence.bytes) bytes): expected \(escape(evidence.expected)), got \(escape(evidence.actual))<br>fix: \(escape(defect.fix))</li>\n"
            }
            html += "</ol>\n"
            if !diagnosis.unexplained.isEmpty { html += "<p>Unexplained: \(diagnosis.unexplained.map { "<a href=\"#\(escape($0))\">\(escape($0))</a>" }.joined(separator: ", "))</p>\n" }
        }
        html += appendix
        let sections = Dictionary(grouping: run.results, by: \.testCase.section).sorted { $0.key < $1.key }
        for (section, results) in sections {
            html += "<h2>\(escape(section.title))</h2>\n<table><tr><th>verdict</th><th>case</th><th>level</th><th>requirements</th><th>what it checks</th></tr>\n"
            for result in results {
                let kind = result.verdict.kind.rawValue
                html += "<tr><td class=\"v \(kind)\">\(kind)</td><td><a href=\"#\(escape(result.testCase.id))\">\(escape(result.testCase.id))</a></td>"
                html += "<td>\(result.levelLabel)</td><td>\(result.testCase.requirements.map(\.rawValue).joined(separator: " "))</td>"
                html += "<td>\(escape(result.testCase.summary))</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "<h2>Cases</h2>\n"
        for result in run.results {
            let verdict = result.verdict
            let open = verdict.kind.isPass && verdict.kind != .passNonStrict ? "" : " open"
            html += "<details id=\"\(escape(result.testCase.id))\"\(open)><summary><span class=\"v \(verdict.kind.rawValue)\">\(verdict.kind.rawValue)</span> "
            html += "<code>\(escape(result.testCase.id))</code>: \(escape(result.testCase.summary))</summary>\n"
            html += "<p>\(escape(verdict.reason))</p>\n"
            if !verdict.expected.isEmpty { html += "<p>expected: \(escape(verdict.expected))<br>actual: \(escape(verdict.actual))</p>\n" }
            html += "<ul>" + (verdict.requirements.isEmpty ? result.testCase.requirements : verdict.requirements)
                .map { "<li><b>\($0.rawValue)</b> \(escape($0.summary))</li>" }.joined() + "</ul>\n"
            if result.isFlaky { html += "<p>flaky: runs gave \(result.runs.map(\.rawValue).joined(separator: ", "))</p>\n" }
            html += "<pre>\(escape(TranscriptRenderer.lines(result.transcript).joined(separator: "\n")))</pre></details>\n"
        }
        html += "</body></html>\n"
        return html
    }
}
