/// Why a synthesizer could not be made ready.
public enum SynthesisError: Error, Hashable, Sendable {
    /// FluidSynth refused a setting or could not allocate its synthesizer.
    case cannotCreateSynthesizer(reason: String)
    /// The SoundFont is missing, unreadable or not a SoundFont.
    case cannotLoadSoundFont(path: String)
}

extension SynthesisError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cannotCreateSynthesizer(let reason): "cannot start the synthesizer: \(reason)"
        case .cannotLoadSoundFont(let path): "\(path): cannot load SoundFont (missing, unreadable, or not a .sf2/.sf3 file)"
        }
    }
}
