import SMF
import SystemPackage

// What `smfplay info` shows of a song's folder settings.
extension FolderSettings {
    /// One key set, its value as the file writes it (without quotes), and the file that set it.
    public struct Entry: Sendable, Equatable {
        public var key: Key
        public var value: String
        public var file: FilePath
    }

    /// The keys set, in the order of ``Key``.
    public var entries: [Entry] {
        func entry<Value>(_ key: Key, _ setting: Setting<Value>?, _ text: (Value) -> String) -> Entry? {
            setting.map { Entry(key: key, value: text($0.value), file: $0.file) }
        }
        let number = NumberText.format
        let all: [Entry?] = [
            entry(.soundFont, soundFonts) { $0.written.count == 1 ? $0.written[0] : "[\($0.written.joined(separator: ", "))]" },
            entry(.midiMode, midiMode) { $0?.rawValue ?? "auto" },
            entry(.textEncoding, textEncoding) { $0?.rawValue ?? "auto" },
            entry(.gain, gain, number),
            entry(.transpose, transpose) { String($0) },
            entry(.loops, loops) { $0.text },
            entry(.fade, fade, number),
            entry(.reverbEnabled, reverbEnabled) { String($0) },
            entry(.reverbRoomSize, reverbRoomSize, number),
            entry(.reverbDamping, reverbDamping, number),
            entry(.reverbWidth, reverbWidth, number),
            entry(.reverbLevel, reverbLevel, number),
            entry(.chorusEnabled, chorusEnabled) { String($0) },
            entry(.chorusVoices, chorusVoices) { String($0) },
            entry(.chorusLevel, chorusLevel, number),
            entry(.chorusSpeed, chorusSpeed, number),
            entry(.chorusDepth, chorusDepth, number),
        ]
        return all.compactMap { $0 }
    }

    /// Why the SoundFonts a folder file names cannot be played, if they cannot: shown by `info`,
    /// and thrown by ``applied(to:commandLine:)`` for a song that would play with them.
    public var soundFontProblem: FolderSettingsError? {
        guard case .failure(let error) = soundFonts?.value.located else { return nil }
        return error
    }
}
