import Playback

/// The player's status on a terminal: what is playing, where, and the keys.
struct PlayView {
    static let keysLine = "space pause  ←/→ 5 s  ↑/↓ 30 s  n next  p previous  r restart  q quit"
    private var linesDrawn = 0

    /// Redraws the view in place.
    mutating func draw(_ snapshot: PlayerSnapshot, columns: Int) {
        let lines = Self.lines(for: snapshot, columns: columns)
        var text = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)A" : ""
        for line in lines { text += "\r" + line + "\u{1B}[K\n" }
        writeToStandardOutput(text)
        linesDrawn = lines.count
    }

    static func lines(for snapshot: PlayerSnapshot, columns: Int) -> [String] {
        let width = max(columns - 1, 10)
        guard let file = snapshot.file else { return ["(nothing playing)"] }
        let parts = file.split(separator: "/").map(String.init)
        let name = parts.last ?? file
        let folders = parts.dropLast().suffix(2).joined(separator: " / ")
        let place = "\(snapshot.place + 1) of \(snapshot.queueLength)"
        var time = "\(formatDuration(snapshot.heardSeconds)) / \(formatDuration(snapshot.durationSeconds))"
        if let tempo = snapshot.tempoBPM { time += "  \(Int(tempo.rounded())) bpm" }
        let barWidth = max(0, width - DisplayWidth.columns(of: time) - 3)
        let fraction = snapshot.durationSeconds > 0 ? min(1, snapshot.heardSeconds / snapshot.durationSeconds) : 0
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]"
        let folderWidth = max(0, width - DisplayWidth.columns(of: place) - 2)
        let folderText = DisplayWidth.fitting(folders, width: folderWidth)
        let gap = String(repeating: " ", count: max(1, width - DisplayWidth.columns(of: folderText) - DisplayWidth.columns(of: place)))
        return [
            DisplayWidth.fitting((snapshot.isPaused ? "❚❚ " : "▶ ") + name, width: width),
            folderText + gap + place,
            bar + " " + time,
            DisplayWidth.fitting(keysLine, width: width),
        ]
    }
}
