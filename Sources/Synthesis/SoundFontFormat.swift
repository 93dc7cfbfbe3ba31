import Files
import SystemPackage

/// What a SoundFont file's first bytes say it is, read before FluidSynth (and the DLS loader of
/// libinstpatch, which prints GLib criticals on standard error) ever sees it: a file that is not
/// a SoundFont by its outline is refused with the reason.
enum SoundFontFormat: Equatable {
    /// A SoundFont 2 (.sf2): RIFF form `sfbk`, its samples stored as they sound.
    case soundFont
    /// MuseScore's SoundFont 3 (.sf3): the same form, version 3, its samples in Ogg Vorbis.
    case compressed
    /// Downloadable Sounds (.dls): RIFF form `DLS `.
    case downloadableSounds

    /// Reads the file's RIFF header and, for a SoundFont, its version (the `ifil` chunk that
    /// starts its INFO list): a version other than 3, or none where the format wants it, is
    /// left for FluidSynth to judge as an .sf2. With `part`, the bank is those bytes of the file
    /// (an RMID file's embedded bank).
    init(of path: FilePath, part: Range<Int64>? = nil) throws(SynthesisError) {
        let file: ReadableFile
        do {
            file = try ReadableFile(path)
        } catch {
            throw .notASoundFont(path: path, reason: error.description)
        }
        let part = part ?? 0..<file.size
        let header: [UInt8]
        do {
            header = try file.read(upTo: min(36, Int(max(0, part.count))), at: part.lowerBound)
        } catch {
            throw .notASoundFont(path: path, reason: SystemError.text(error.rawValue))
        }
        func bytes(_ range: Range<Int>, are text: String) -> Bool { header[range].elementsEqual(text.utf8) }
        guard header.count >= 12, bytes(0..<4, are: "RIFF"), bytes(8..<12, are: "sfbk") || bytes(8..<12, are: "DLS ") else {
            throw .notASoundFont(path: path, reason: "it does not start like a .sf2 or .sf3 file (RIFF, then sfbk)")
        }
        let declared = 8 + Int64(Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24)
        let available = min(Int64(part.count), file.size - part.lowerBound)
        guard declared <= available else {
            throw .notASoundFont(path: path, reason: "it is cut short: its header says \(declared) bytes, the file has \(available)")
        }
        if bytes(8..<12, are: "DLS ") {
            self = .downloadableSounds
        } else if header.count == 36, bytes(12..<16, are: "LIST"), bytes(20..<24, are: "INFO"), bytes(24..<28, are: "ifil"),
            Int(header[32]) | Int(header[33]) << 8 == 3
        {
            self = .compressed
        } else {
            self = .soundFont
        }
    }
}
