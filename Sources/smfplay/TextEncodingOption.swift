import ArgumentParser
import Configuration
import Files
import SMF

/// `--text-encoding`: how MIDI files' texts are read, over the configuration's `text_encoding`.
struct TextEncodingOption: ParsableArguments {
    @Option(
        name: .customLong("text-encoding"),
        help: ArgumentHelp(
            "How the files' titles and lyrics are read: auto (decided for each file from all its text), "
                + "utf-8, shift-jis or cp1252 (default: the configuration's text_encoding, else auto).", valueName: "encoding"),
        completion: .list(Configuration.textEncodings))
    var textEncoding: String?

    func checkOwnArguments() throws {
        if let textEncoding, !Configuration.textEncodings.contains(textEncoding) {
            throw ValidationError("--text-encoding must be auto, utf-8, shift-jis or cp1252, not \(textEncoding)")
        }
    }

    /// The encoding asked for; nil for auto, each file's own.
    func encoding(configuration: Configuration) -> TextDecoding.Encoding? {
        TextDecoding.Encoding(rawValue: textEncoding ?? configuration.textEncoding ?? "auto")
    }

    /// Files' names that are not UTF-8 (an archive's members, files unpacked from one) read in the
    /// encoding asked for, as their texts are; by default as ``FilePath/text`` decides.
    func readNames(configuration: Configuration) {
        FileNameEncoding.choose(encoding(configuration: configuration).map { $0.foundationEncoding ?? .utf8 })
    }

    /// How `file`'s text is read: the encoding asked for, or the one its text shows.
    func decoding(for file: MIDIFile, configuration: Configuration) -> TextDecoding {
        encoding(configuration: configuration).map(TextDecoding.init(forcing:)) ?? TextDecoding(detectingIn: file)
    }
}

extension TextEncodingOption: ArgumentChecks {
}
