import Foundation
import SystemPackage
import Testing

/// The SoundFont most render tests use, from a Debian package that `make deps` installs.
public enum TestSoundFont {
    /// TimGM6mb (package timgm6mb-soundfont): small, so quick to load.
    public static let path: FilePath = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    public static func required() throws -> FilePath {
        try #require(FileManager.default.fileExists(atPath: path.string), "\(path) is missing: run `make deps` (Debian package timgm6mb-soundfont)")
        return path
    }
}
