import ArgumentParser
import Configuration
import Synthesis

/// The options that change how a song is played, its file untouched: key, tempo, channels heard,
/// and how game music's loop plays. For `play`, `browse`, `resume` and `render` alike.
struct PerformanceOptions: ParsableArguments {
    // Unconditional: `--transpose -2` is a value, not an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Move every key by this many semitones, -24 to 24 (drum channels are not moved).", valueName: "semitones"))
    var transpose: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Play this much faster (2) or slower (0.5) than written, 0.25 to 4; pitches are kept.", valueName: "factor"))
    var tempo: Double?

    @Option(
        help: ArgumentHelp("Channels not to play, 1-16, comma-separated (10 is the drums).", valueName: "channels"),
        transform: ChannelSet.parsing)
    var mute: ChannelSet?

    @Option(
        help: ArgumentHelp("Play only these channels, 1-16, comma-separated.", valueName: "channels"),
        transform: ChannelSet.parsing)
    var solo: ChannelSet?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Extra passes through a song's loop (marked by loopStart/loopEnd, or controllers 116/117, 118/119, 111 or 2/4), 0 to 1000, inf, or marked: as many as the mark says (116/117, 118/119; a render plays a loop marked for ever once more). Default: 0.",
            valueName: "count"),
        transform: LoopCount.init(parsing:))
    var loops: LoopCount?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "After the last extra loop, play the loop on while fading out over this many seconds, 0 to 60 (default: 0, no fade).",
            valueName: "seconds"))
    var fade: Double?

    func checkOwnArguments() throws {
        if let transpose, !Performance.transposeRange.contains(transpose) {
            throw ValidationError("--transpose must be from -24 to 24 semitones, not \(transpose)")
        }
        if let tempo, !Performance.tempoRange.contains(tempo) { throw ValidationError("--tempo must be from 0.25 to 4, not \(tempo.formatted)") }
        if let fade, !LoopSettings.fadeRange.contains(fade) { throw ValidationError("--fade must be from 0 to 60 seconds, not \(fade.formatted)") }
    }

    /// What the options ask for (`checkArguments()` has checked them).
    var performance: Performance {
        Performance(
            transpose: transpose ?? 0, tempo: tempo ?? 1,
            muted: mute ?? ChannelSet(), soloed: solo ?? ChannelSet())
    }

    /// The loops asked for, over the configuration's `loops` and `fade`. A render, which must end,
    /// plays a loop marked to repeat for ever once more (`marked`, here or in a folder's settings).
    func loopSettings(configured settings: RenderSettings, mustEnd: Bool = false) -> LoopSettings {
        var chosen = settings.configuredLoops(mustEnd: mustEnd)
        if let loops { chosen.count(loops) }
        if let fade { chosen.fadeSeconds = fade }
        return chosen
    }

    /// Whether the loop plays for ever: a render would never end.
    var loopsForever: Bool { loops == .forever }
}

extension Double {
    fileprivate var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

extension PerformanceOptions: ArgumentChecks {
}
