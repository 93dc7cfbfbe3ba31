import Files
import SMF
import Synthesis
import SystemPackage

/// A song and the sound it is rendered with, as far as its loudness goes: what its measured
/// loudness is kept under (``LoudnessMemory``). A changed SoundFont or setting makes another key,
/// so the song is measured anew rather than wrongly.
public struct SongSoundKey: Hashable, Sendable {
    /// The MD5 of the song file's bytes: the same song is the same wherever it is, in the library
    /// or not; an edited song is another.
    public var content: String
    /// The MD5 of everything but the gain that makes the song sound as it does: the synthesizer's
    /// settings, each SoundFont (its path, size and modification time), the song's own bank, the
    /// performance (key, tempo, channels) and loops. The gain is left out: loudness is kept at a
    /// gain of 1, and any other is a shift in decibels.
    public var sound: String

    public init(content: String, sound: String) {
        self.content = content
        self.sound = sound
    }

    /// The key of the song whose file has MD5 `content`, rendered with these.
    init(content: String, settings: SynthesizerSettings, soundFonts: SoundFontStack, performance: Performance, loops: LoopSettings) {
        var settings = settings
        settings.gain = 1
        var text = "smfplay loudness 1\n\(settings)\n\(performance)\n\(loops)\n"
        for path in soundFonts.paths { text += "soundfont \(Self.describe(path))\n" }
        for mode in MIDIMode.allCases {
            guard let paths = soundFonts.pathsByMode[mode] else { continue }
            text += "\(mode) " + paths.map(Self.describe).joined(separator: " ") + "\n"
        }
        switch soundFonts.songBank?.source {
        case .file(let path): text += "bank \(Self.describe(path)) at \(soundFonts.songBank!.bankOffset)\n"
        case .embedded: text += "embedded bank at \(soundFonts.songBank!.bankOffset)\n"
        case nil: break
        }
        self.init(content: content, sound: MD5.hexDigest(of: text.utf8))
    }

    /// A SoundFont as far as its sound goes: the file, and its size and modification time.
    private static func describe(_ path: FilePath) -> String {
        let stamp = FileStamp(ofFileAt: path)
        return "\(path.text.debugDescription) \(stamp?.size ?? -1) \(stamp?.modifiedSeconds ?? 0).\(stamp?.modifiedNanoseconds ?? 0)"
    }

    /// The MD5 of the song file at `path`; nil when it cannot be read (the render then reports why).
    public static func content(ofSongAt path: FilePath) -> String? {
        let limit = SMFReadingPolicy.lenient.maximumFileSize
        if let bytes = (try? SmallFile.read(path, limit: limit)) ?? (try? ArchivedPath(path)?.read(memberLimit: limit)) {
            return MD5.hexDigest(of: bytes)
        }
        // A song of an XMI file of several (`music.xmi/2`): the file's content, and which song.
        guard let song = path.numberedSong, let file = content(ofSongAt: song.file) else { return nil }
        return file + "/\(song.number)"
    }
}
