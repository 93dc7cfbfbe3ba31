import Configuration
import Foundation
import SystemPackage
import Testing

/// `Config/folder.smfplay.toml` documents a folder file's keys: these tests keep it and the code
/// from drifting apart.
struct SampleFolderSettingsTests {
    static let samplePath = FilePath(
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Config/folder.smfplay.toml").path)

    static let locator = SoundFontLocator(searchFolders: [], systemLocations: [])

    @Test func shippedFileSetsNothing() throws {
        let text = try String(contentsOfFile: Self.samplePath.string, encoding: .utf8)
        #expect(try FolderSettings(parsing: text, path: Self.samplePath, locator: Self.locator).isEmpty)
    }

    @Test func everyKeyIsDocumentedWithAValueItTakes() throws {
        let text = try String(contentsOfFile: Self.samplePath.string, encoding: .utf8)
        let uncommented = SampleConfigurationTests.uncommented(text)
        let settings = try FolderSettings(parsing: uncommented, path: Self.samplePath, locator: Self.locator)
        #expect(Set(settings.entries.map(\.key)) == Set(FolderSettings.Key.allCases))
    }
}
