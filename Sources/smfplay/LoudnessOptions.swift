import ArgumentParser
import Configuration
import Foundation
import Loudness

/// `--loudness` and `--loudness-target`: whether play and `render --normalize` bring each song or
/// each folder to one loudness, and which, over the configuration's `loudness` and
/// `loudness_target`.
struct LoudnessOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "track: bring each song to the loudness target (measured once, kept in the library index); folder: each folder as one, its songs keeping their levels relative to one another (an album); off: each song as it sounds. Render brings songs to it only with --normalize. Default: the configuration's loudness, else track.",
            valueName: "track|folder|off"))
    var loudness: LoudnessMode?

    @Option(
        name: .customLong("loudness-target"), parsing: .unconditional,
        help: ArgumentHelp(
            "The loudness songs are brought to, from -40 to -5 (default: the configuration's loudness_target, else -18); --gain is a trim on top.",
            valueName: "LUFS"))
    var loudnessTarget: Double?

    func checkOwnArguments() throws {
        if let loudnessTarget, !LoudnessTarget.range.contains(loudnessTarget) {
            throw ValidationError("--loudness-target must be from -40 to -5 LUFS, not \(loudnessTarget.formatted())")
        }
    }

    /// The command line over the configuration.
    func apply(to settings: inout RenderSettings) {
        if let loudness { settings.loudnessMode = loudness }
        if let loudnessTarget { settings.loudnessTarget = loudnessTarget }
    }

    /// The target of `settings`, met at the default gain (any other is a trim).
    static func target(_ settings: RenderSettings) -> LoudnessTarget {
        LoudnessTarget(integratedLUFS: settings.loudnessTarget, referenceGain: RenderSettings.defaultGain)
    }
}

extension LoudnessOptions: ArgumentChecks {}
