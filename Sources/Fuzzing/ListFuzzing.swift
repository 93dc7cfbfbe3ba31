import Library
import RenderJobs

/// The lists smfplay reads: the input as an M3U playlist, a render input manifest and a render
/// report (each line a JSON report).
enum ListFuzzing {
    static func test(_ bytes: [UInt8]) {
        _ = M3UPlaylist.entries(inPlaylist: bytes, folder: "/fuzz")
        _ = InputManifest(bytes: bytes, folder: "/fuzz")
        var summary = ReportSummary()
        summary.add(bytes, name: "report")
        _ = summary.text
    }
}
