import Foundation
import Testing

/// Debian's small General MIDI SoundFont (package timgm6mb-soundfont), which every render test uses.
enum TestSoundFont {
    static let path = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    static func required() throws -> String {
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing: run `make deps` (Debian package timgm6mb-soundfont)")
        return path
    }
}
