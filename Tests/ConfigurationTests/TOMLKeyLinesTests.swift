import SystemPackage
import Testing

@testable import Configuration

struct TOMLKeyLinesTests {
    @Test func findsKeysInEveryForm() {
        let text = """
            \u{FEFF}# comment with key = 1
            top = "value # not a comment"
            'literal key' = 'x'
            "quoted\\u00e9" = 1
            a.b . c = [
              1, # comment ]
              { inner = 2 },
              "]",
            ]
            multi = \"\"\"
            fake = 1
            \\\"\"\"
            still = string \\
            \"\"\"\"
            lit = '''
            [fake]
            '''
            when = 1979-05-27 07:32:00Z
            inline = { x = 1, y = { z = "}" } }

            [table . sub]
            key = true
            [[array]]
            item = 1
            [[array]]
            item = 2
            [table]
            later = 0
            """
        let lines = TOMLKeyLines(scanning: text)
        let expected: [([String], Int)] = [
            (["top"], 2), (["literal key"], 3), (["quotedé"], 4),
            (["a"], 5), (["a", "b"], 5), (["a", "b", "c"], 5),
            (["multi"], 10), (["lit"], 15), (["when"], 18),
            (["inline"], 19), (["inline", "x"], 19), (["inline", "y", "z"], 19),
            (["table"], 21), (["table", "sub"], 21), (["table", "sub", "key"], 22),
            (["array"], 23), (["array", "item"], 24), (["table", "later"], 28),
        ]
        for (key, line) in expected {
            #expect(lines.recordedLine(of: key) == line, "\(key)")
        }
        for fake in [["fake"], ["inner"], ["still"], ["comment with key"]] {
            #expect(lines.recordedLine(of: fake) == nil, "\(fake)")
        }
        #expect(lines.abortingError == nil)
        // A key the scan did not see falls back to its table's line.
        #expect(lines.line(of: ["table", "sub", "unseen"]) == 21)
        #expect(lines.line(of: ["nowhere"]) == 1)
    }

    /// Text that does not parse is scanned too: a byte no item takes is passed (these scans
    /// never ended), and nesting deeper than toml++ reads is not followed (this one overflowed
    /// the stack).
    @Test(arguments: ["x = {]", "x = [1, {]\ny = 2", String(repeating: "x = [", count: 1) + String(repeating: "[{a=", count: 50_000)])
    func everyScanEnds(_ text: String) {
        #expect(TOMLKeyLines(scanning: text).abortingError == nil)
    }

    @Test func findsABraceWhereAnArrayWantsAValue() {
        let lines = TOMLKeyLines(scanning: "a = { b = '}' }\nc = [\n  1, # }\n  \"}\",\n  é}\n]")
        #expect(lines.abortingError.map { [$0.line, $0.column] } == [5, 4])
    }

    @Test func editDistanceCountsASwapAsOne() {
        #expect(NameSuggestion.editDistance("gian", "gain") == 1)
        #expect(NameSuggestion.editDistance("sample-rate", "sample_rate") == 1)
        #expect(NameSuggestion.editDistance("", "abc") == 3)
        #expect(NameSuggestion.editDistance("colour", "level") > 2)
    }
}
