import Foundation

/// Encodes 16-bit mono samples as one Ogg Vorbis stream with `sox` (Debian package sox, which
/// `make deps` installs): what a SoundFont 3 stores for each sample.
enum OggVorbisEncoder {
    static let sox = URL(fileURLWithPath: "/usr/bin/sox")

    static func encode(_ frames: [Int16], sampleRate: Int) throws -> [UInt8] {
        guard FileManager.default.isExecutableFile(atPath: sox.path) else {
            throw TestFailure("\(sox.path) is missing: run `make deps` (Debian package sox)")
        }
        let folder = try TemporaryFolder()
        let raw = folder.file("sample.raw")
        let ogg = folder.file("sample.ogg")
        let pcm = RIFFBuilder.body { builder in frames.forEach { builder.append($0) } }
        try folder.create("sample.raw", pcm)
        // Quality 6 (about 190 kbit/s): the waves keep their harmonics well above the codec's noise.
        let arguments = ["-t", "s16", "-L", "-r", "\(sampleRate)", "-c", "1", raw, "-C", "6", ogg]
        let result = try Command(sox, arguments: arguments, timeLimit: 60).run()
        guard result.succeeded else { throw TestFailure("sox could not encode a sample: \(result)") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: ogg)))
    }
}
