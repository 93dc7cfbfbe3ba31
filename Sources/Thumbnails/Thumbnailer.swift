import Files
import SMF
import SystemPackage

/// Makes a piano-roll thumbnail of a MIDI file, as a freedesktop thumbnailer
/// does: from the file alone (no SoundFont, no configuration), in two light
/// passes over its events, keeping none of them.
public struct Thumbnailer: Sendable {
    /// The longer side of the image, in pixels.
    public var size: Int

    public static let defaultSize = 256
    /// Sizes accepted: the freedesktop sizes (128 to 1024) fit well inside.
    public static let sizes = 16...4096

    public init(size: Int = Self.defaultSize) {
        precondition(Self.sizes.contains(size), "thumbnail size out of range")
        self.size = size
    }

    /// The image's width and height: landscape, 4:3, as time needs more room than pitch.
    public var dimensions: (width: Int, height: Int) {
        (size, max(1, (size * 3 + 2) / 4))
    }

    /// Writes a PNG piano roll of the MIDI file at `input` to `output`. A file
    /// that cannot be read leaves nothing at `output`, not even a temporary file. `text` and
    /// `access` are `PNGFile.write`'s.
    public func write(
        midiFile input: FilePath, to output: FilePath, text: [(keyword: String, text: String)] = [],
        access: AtomicWrite.Access = .shared
    ) throws(ThumbnailError) {
        try PNGFile.write(image(ofMIDIFile: input), to: output, text: text, access: access)
    }

    /// The bytes of a PNG piano roll of the MIDI file at `input`, for a pipe.
    public func png(ofMIDIFile input: FilePath) throws(ThumbnailError) -> [UInt8] {
        try PNGFile.encode(image(ofMIDIFile: input), for: FilePath("standard output"))
    }

    private func image(ofMIDIFile input: FilePath) throws(ThumbnailError) -> RGBImage {
        let image: RGBImage
        do throws(SMFFileError) {
            let stream = try SMFEventStream(path: input)
            do throws(SMFError) {
                let outline = try SongOutline(stream: stream)
                let (width, height) = dimensions
                image = try PianoRoll.image(of: stream, outline: outline, width: width, height: height)
            } catch {
                throw SMFFileError.invalid(path: input, error)
            }
        } catch {
            throw .unreadableSong(error)
        }
        return image
    }
}
