import DecafDiagnosis

/// The run as JUnit XML (`--junit FILE`), the format CI systems read: one testsuite per spec
/// section, one testcase per case (name = case ID, classname = `decaf.conform.<section>`, or
/// `decaf.fuzz.<section>` for a fuzz campaign), a
/// `<failure>` with the reason for fail and timeout, `<error>` for harness errors, `<skipped>` for
/// unsupported; the suite version and catalog checksum as properties. A run that stopped early
/// says so in an `incomplete` property of every testsuite (and in a testsuite of its own when no
/// case had finished). A run with a diagnosis gives it in the properties (its headline, then each
/// defect's cause), and each failure a defect explains names it first in its message.
public enum JUnitReport {
    public static func render(_ run: ConformanceRun) -> String {
        let escape = MarkupEscaping.escape
        let sections = Dictionary(grouping: run.results, by: \.testCase.section).sorted { $0.key < $1.key }
        let failures = run.results.filter { $0.verdict.kind.isFailure }.count
        let errors = run.results.filter { $0.verdict.kind == .harnessError }.count
        let package = run.tool.split(separator: " ").joined(separator: ".")
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(run.tool) \(run.kind.rawValue)\" tests=\"\(run.results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(DurationText.seconds(run.duration))\">\n"
        var runProperties = run.stop.map { _ in "      <property name=\"incomplete\" value=\"\(escape(run.summaryLine))\"/>\n" } ?? ""
        if let diagnosis = run.diagnosis, !diagnosis.defects.isEmpty {
            runProperties += "      <property name=\"diagnosis\" value=\"\(escape(diagnosis.headline))\"/>\n"
            for defect in diagnosis.defects {
                runProperties += "      <property name=\"defect.\(escape(defect.name))\" value=\"\(escape("\(defect.cause) (\(defect.explains.count) failures); fix: \(defect.fix)"))\"/>\n"
            }
        }
        if sections.isEmpty && run.stop != nil {
            xml += "  <testsuite id=\"0\" name=\"incomplete run\" package=\"\(package)\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\" hostname=\"\(escape(run.target))\">\n"
            xml += "    <properties>\n\(runProperties)    </properties>\n    <system-out></system-out>\n    <system-err></system-err>\n  </testsuite>\n"
        }
        for (index, (section, results)) in sections.enumerated() {
            let sectionFailures = results.filter { $0.verdict.kind.isFailure }.count
            let sectionErrors = results.filter { $0.verdict.kind == .harnessError }.count
            let skipped = results.filter { $0.verdict.kind == .unsupported }.count
            let time = results.reduce(Duration.zero) { $0 + $1.duration }
            xml += "  <testsuite id=\"\(index)\" name=\"\(escape(section.title))\" package=\"\(package)\" tests=\"\(results.count)\" failures=\"\(sectionFailures)\" errors=\"\(sectionErrors)\" skipped=\"\(skipped)\" time=\"\(DurationText.seconds(time))\" hostname=\"\(escape(run.target))\">\n"
            xml += "    <properties>\n"
            xml += "      <property name=\"suiteVersion\" value=\"\(escape(run.suiteVersion))\"/>\n"
            xml += "      <property name=\"catalogChecksum\" value=\"\(run.catalogChecksum)\"/>\n"
            xml += "      <property name=\"target\" value=\"\(escape(run.target))\"/>\n"
            xml += runProperties
            xml += "    </properties>\n"
            for result in results {
                let verdict = result.verdict
                let classname = package + "." + section.title.split(separator: " ").dropFirst().joined(separator: "-").lowercased().filter { $0.isLetter || $0 == "-" }
                xml += "    <testcase name=\"\(escape(result.testCase.id))\" classname=\"\(classname)\" time=\"\(DurationText.seconds(result.duration))\""
                let defect = run.diagnosis?.defect(explaining: result.testCase.id).map { "defect \($0.name), " } ?? ""
                let message = escape("\(verdict.kind.rawValue): \(defect)\(verdict.reason)")
                let body = escape(TextReport.detail(result, withBytes: true))
                switch verdict.kind {
                case .fail, .timeout:
                    xml += ">\n      <failure message=\"\(message)\" type=\"\(verdict.kind.rawValue)\">\(body)</failure>\n    </testcase>\n"
                case .harnessError:
                    xml += ">\n      <error message=\"\(message)\" type=\"harness-error\">\(body)</error>\n    </testcase>\n"
                case .unsupported:
                    xml += ">\n      <skipped message=\"\(message)\"/>\n    </testcase>\n"
                case .passNonStrict:
                    xml += ">\n      <system-out>\(message)</system-out>\n    </testcase>\n"
                case .pass:
                    xml += "/>\n"
                }
            }
            xml += "    <system-out></system-out>\n    <system-err></system-err>\n"
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }
}
