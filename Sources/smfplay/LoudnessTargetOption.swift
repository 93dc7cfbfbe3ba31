import ArgumentParser
import Configuration
import Foundation
import Loudness

/// `--loudness-target`: the loudness `render --normalize` and play's `--loudness track` bring
/// songs to, over the configuration's `loudness_target`.
struct LoudnessTargetOption: ParsableArguments {
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
        if let loudnessTarget { settings.loudnessTarget = loudnessTarget }
    }

    /// The target of `settings`, met at the default gain (any other is a trim).
    static func target(_ settings: RenderSettings) -> LoudnessTarget {
        LoudnessTarget(integratedLUFS: settings.loudnessTarget, referenceGain: RenderSettings.defaultGain)
    }
}

extension LoudnessTargetOption: ArgumentChecks {}
