import Configuration
import Foundation
import SystemPackage
import Testing

struct ConfigurationFileTests {
    @Test func theStandardFileIsInTheConfigHome() {
        let directories = XDGDirectories(environment: ["HOME": "/home/zoë", "XDG_CONFIG_HOME": "/etc/xdg-zoë"])
        let file = ConfigurationFile.standard(in: directories)
        #expect(file.path == "/etc/xdg-zoë/smfplay/config.toml")
        #expect(!file.isRequired)
        #expect(ConfigurationFile.standard(in: XDGDirectories(environment: ["HOME": "/home/zoë"])).path == "/home/zoë/.config/smfplay/config.toml")
    }

    @Test func aMissingStandardFileGivesTheDefaults() throws {
        let folder = try TemporaryFolder()
        let directories = XDGDirectories(environment: ["HOME": folder.path])
        #expect(try ConfigurationFile.standard(in: directories).load() == Configuration())
    }

    @Test func aMissingStandardFolderGivesTheDefaultsToo() throws {
        // ~/.config being a file makes the path fail with ENOTDIR rather than ENOENT.
        let folder = try TemporaryFolder()
        try folder.write(".config")
        let directories = XDGDirectories(environment: ["HOME": folder.path])
        #expect(try ConfigurationFile.standard(in: directories).load() == Configuration())
    }

    @Test func theStandardFileIsRead() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(".config/smfplay/config.toml", "gain = 2\n[reverb]\nenabled = false\n")
        let configuration = try ConfigurationFile.standard(in: XDGDirectories(environment: ["HOME": folder.path])).load()
        #expect(configuration.path == path)
        #expect(configuration.render == RenderSettings(gain: 2, isReverbEnabled: false))
    }

    @Test func aMissingNamedFileIsAnError() throws {
        let folder = try TemporaryFolder()
        let path = FilePath(folder.path + "/Müller.toml")
        #expect(throws: ConfigurationError.missingFile(path: path)) { try ConfigurationFile(path: path).load() }
        #expect(ConfigurationError.missingFile(path: path).description == "\(path): no such configuration file")
    }

    @Test func aFolderIsNotAConfigurationFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.makeFolder("config.toml")
        #expect(throws: ConfigurationError.unreadable(path: path, reason: "is a folder, not a configuration file")) {
            try ConfigurationFile(path: path).load()
        }
        // Also where a missing file would be fine: something is there, and it is wrong.
        let standard = try folder.makeFolder("smfplay/config.toml")
        #expect(throws: ConfigurationError.unreadable(path: standard, reason: "is a folder, not a configuration file")) {
            try ConfigurationFile.standard(in: XDGDirectories(environment: ["HOME": "/", "XDG_CONFIG_HOME": folder.path])).load()
        }
    }

    @Test func aHugeFileIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("config.toml", String(repeating: "#", count: ConfigurationFile.sizeLimit + 1))
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFile(path: path).load() }
        #expect(
            error?.description
                == "\(path): is \(ConfigurationFile.sizeLimit + 1) bytes, too large for a configuration file (at most \(ConfigurationFile.sizeLimit))"
        )
    }

    @Test func aFileThatIsNotUTF8IsNamedWithItsPlace() throws {
        let folder = try TemporaryFolder()
        // "gain = 1\n# Dvořák" in Latin-2-ish bytes: 0xF8 is not UTF-8.
        let path = try folder.write("config.toml", bytes: Array("gain = 1\n# Dvo".utf8) + [0xF8] + Array("ák\n".utf8))
        #expect(throws: ConfigurationError.syntax(path: path, line: 2, column: 6, message: "not UTF-8 text; save the file as UTF-8")) {
            try ConfigurationFile(path: path).load()
        }
    }

    @Test func errorsInTheFileNameTheFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("ショパン.toml", "# Chopin\n[chorus]\nvoices = \"many\"\n")
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationFile(path: path).load() }
        #expect(error?.description == "\(path):3: key 'chorus.voices' must be a whole number from 0 to 99, not \"many\"")
        #expect(error?.path == path)
        #expect(error?.line == 3)
    }
}
