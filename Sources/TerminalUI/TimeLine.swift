import Playback

/// The play view's time line: a progress bar, then the time and what else fits of the song's
/// place and the changes made to it, by importance (the loop's pass and the tempo before the bar
/// and beat). The bar takes what is left, and never less than a quarter of the line.
enum TimeLine {
    /// The narrowest the bar's inside gets.
    static let shortestBar = 8

    static func line(for snapshot: PlayerSnapshot, width: Int, showsUnderruns: Bool) -> String {
        let barWidth = max(Self.shortestBar, width / 4)
        let facts = LinePieces.fitting(pieces(for: snapshot, showsUnderruns: showsUnderruns), width: width - barWidth - 3)
        let inside = max(0, width - DisplayWidth.columns(of: facts) - 3)
        let fraction = snapshot.durationSeconds > 0 ? min(1, snapshot.heardSeconds / snapshot.durationSeconds) : 0
        let filled = Int((fraction * Double(inside)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: inside - filled) + "]"
        return DisplayWidth.fitting(bar + " " + facts, width: width)
    }

    /// What the line may say, in its order, each with its importance (0 first).
    static func pieces(for snapshot: PlayerSnapshot, showsUnderruns: Bool) -> [(text: String, rank: Int)] {
        let performance = snapshot.performance
        var pieces = [("\(formatDuration(snapshot.heardSeconds)) / \(formatDuration(snapshot.durationSeconds))", 0)]
        if let place = snapshot.barBeat { pieces.append(("bar \(place.bar) beat \(place.beat)", 5)) }
        if let tempo = snapshot.tempoBPM { pieces.append(("\(Int(tempo.rounded())) bpm", 4)) }
        if performance.tempo != 1 {
            // Song time first, as seeks and the resume state count it; then the time it takes at this tempo.
            pieces.append(("tempo \(Int((performance.tempo * 100).rounded()))%", 2))
            pieces.append(
                (
                    "(\(formatDuration(snapshot.heardSeconds / performance.tempo)) / \(formatDuration(snapshot.durationSeconds / performance.tempo)) heard)",
                    6
                ))
        }
        if performance.transpose != 0 { pieces.append(("key \(performance.transpose > 0 ? "+" : "")\(performance.transpose)", 2)) }
        if snapshot.passCount != 1 { pieces.append(("loop \(snapshot.pass)/\(snapshot.passCount.map(String.init) ?? "∞")", 1)) }
        if snapshot.cores > 1 { pieces.append(("\(snapshot.cores) cores", 3)) }
        if let loudness = snapshot.loudness { pieces.append((text(loudness), 7)) }
        if showsUnderruns { pieces.append(("underruns \(snapshot.underruns)  load \(Int((snapshot.renderLoad * 100).rounded()))%", 1)) }
        return pieces
    }

    /// "−23.4 LUFS +5.4 dB": the song's loudness as it sounds, and the gain that brings it to the
    /// target ("−23.4 LUFS folder +3.1 dB": its folder's gain); "measuring loudness" until it is known.
    static func text(_ loudness: PlayedLoudness) -> String {
        guard let lufs = loudness.integratedLUFS else { return "measuring loudness" }
        let gain = "\(loudness.gainDecibels < 0 ? "" : "+")\(tenths(loudness.gainDecibels)) dB"
        return "\(tenths(lufs)) LUFS \(loudness.isFolderGain ? "folder " : "")\(gain)"
    }

    /// A number to a tenth, with a minus sign (−) when it is below zero.
    private static func tenths(_ value: Double) -> String {
        let count = Int((abs(value) * 10).rounded())
        return "\(value < 0 && count > 0 ? "−" : "")\(count / 10).\(count % 10)"
    }
}
