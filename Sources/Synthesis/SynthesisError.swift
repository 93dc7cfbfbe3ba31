import Files
import SystemPackage

/// Why a synthesizer could not be made ready.
public enum SynthesisError: Error, Hashable, Sendable {
    /// FluidSynth refused a setting or could not allocate its synthesizer.
    case cannotCreateSynthesizer(reason: String)
    /// The SoundFont is missing, unreadable or not a SoundFont.
    case cannotLoadSoundFont(path: FilePath)
    /// The file is not a SoundFont, or is cut short: found before FluidSynth (and the DLS loader of
    /// libinstpatch, which prints GLib criticals on standard error) ever sees it.
    case notASoundFont(path: FilePath, reason: String)
    /// A bank inside another file could not be copied where FluidSynth's DLS loader can open it.
    case cannotCopyBank(FileWriteError)
    /// The bank a song brings could not be loaded: the song plays without it.
    indirect case songBankNotLoaded(SongSoundBank, because: SynthesisError)
}

extension SynthesisError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cannotCreateSynthesizer(let reason): "cannot start the synthesizer: \(reason)"
        case .cannotLoadSoundFont(let path): "\(path.text): cannot load SoundFont: FluidSynth refused it (a damaged .sf2/.sf3 file?)"
        case .notASoundFont(let path, let reason): "\(path.text): not a usable SoundFont: \(reason)"
        case .cannotCopyBank(let error): "cannot copy a sound bank for FluidSynth: \(error)"
        case .songBankNotLoaded(let bank, let error): "\(bank) is not used, the song plays without it: \(error.problem)"
        }
    }

    /// What is wrong, without the file's name (for a message that has named it already).
    var problem: String {
        switch self {
        case .cannotLoadSoundFont: "FluidSynth refused it (damaged?)"
        case .notASoundFont(_, let reason): "not a usable sound bank: \(reason)"
        default: description
        }
    }
}
