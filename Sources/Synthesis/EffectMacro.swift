/// The GS reverb and chorus macros as FluidSynth's one reverb and one chorus can come near them.
///
/// A Sound Canvas starts with Hall 2 and Chorus 3, so those are the configured reverb and chorus
/// (FluidSynth's defaults unless the configuration says otherwise): a GS song that sets them sounds
/// as any other. The other macros scale the room size and damping (reverb) or the depth, speed and
/// level (chorus) from there. FluidSynth has no delay, flanger or feedback: Delay and Panning Delay
/// are a small bright room (the panning one wide), Flanger a fast shallow chorus, the short delays a
/// slow deep one. These are approximations, and the README's compatibility table says so.
enum EffectMacro {
    /// (room size factor, damping or nil for the configured one, width factor), by macro: Room 1–3,
    /// Hall 1–2, Plate, Delay, Panning Delay. Made once: macros are set on the audio thread.
    private static let reverbShapes: [(roomSize: Double, damping: Double?, width: Double)] = [
        (0.5, 0.4, 1), (0.7, 0.3, 1), (0.85, 0.2, 1), (0.9, 0.1, 1), (1, nil, 1), (0.8, 0, 1), (0.6, 0, 1), (0.6, 0, 2),
    ]
    /// (depth, speed, level factors), by macro: Chorus 1–4, Feedback Chorus, Flanger, Short Delay, Short Delay (FB).
    private static let chorusShapes: [(depth: Double, speed: Double, level: Double)] = [
        (0.5, 1, 1), (0.75, 1, 1), (1, 1, 1), (1.25, 0.7, 1), (1, 1, 1.3), (0.3, 2, 1.3), (1.5, 0.5, 0.8), (1.5, 0.5, 1),
    ]

    static func reverb(_ macro: Int, configured: SynthesizerSettings.Reverb) -> SynthesizerSettings.Reverb {
        var reverb = configured
        let shape = reverbShapes[min(max(macro, 0), reverbShapes.count - 1)]
        reverb.roomSize = min(1, configured.roomSize * shape.roomSize)
        reverb.damping = shape.damping ?? configured.damping
        reverb.width = min(100, configured.width * shape.width)
        return reverb
    }

    static func chorus(_ macro: Int, configured: SynthesizerSettings.Chorus) -> SynthesizerSettings.Chorus {
        var chorus = configured
        let shape = chorusShapes[min(max(macro, 0), chorusShapes.count - 1)]
        chorus.depth = configured.depth * shape.depth
        chorus.speed = min(5, configured.speed * shape.speed)
        chorus.level = min(10, configured.level * shape.level)
        return chorus
    }
}
