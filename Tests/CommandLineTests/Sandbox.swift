import Foundation
import TestSupport
import Testing

/// A folder of its own for one test, and smfplay run inside it as a person would run it: from a
/// working folder, with relative paths, and with a home, configuration and data folders of the
/// sandbox's own, so that the real user's `~/.config/smfplay/config.toml` and SoundFonts never
/// leak into a test (nor a test's files into them).
///
/// Its path holds non-ASCII characters on purpose: people's folders do.
final class Sandbox {
    /// Everything the sandbox made; removed when it is dropped.
    let root: String
    /// Where commands start, and where the tests' own files go.
    let work: String
    let home: String
    let configHome: String
    let dataHome: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("smfplay-cli-Dvořák-\(UUID().uuidString)").path
        work = root + "/work"
        home = root + "/home"
        configHome = root + "/config"
        dataHome = root + "/data"
        for folder in [work, home, configHome, dataHome] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The test runner's environment, without any XDG variable it had, and with the sandbox's
    /// home and base folders. Without the desktop's session bus too: a test that wants one starts
    /// its own (see `PrivateSessionBus`), and no other offers smfplay to the desktop's media keys.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("XDG_") && $0.key != "DBUS_SESSION_BUS_ADDRESS" }
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = configHome
        environment["XDG_DATA_HOME"] = dataHome
        environment["XDG_STATE_HOME"] = root + "/state"
        environment["XDG_CACHE_HOME"] = root + "/cache"
        return environment
    }

    /// Runs `smfplay` with `arguments`, starting in `folder` (relative to `work`; `work` itself by default).
    func run(_ arguments: [String], in folder: String? = nil) throws -> Command.Result {
        let smfplay = try #require(Self.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        let directory = folder.map(path) ?? work
        return try Command(
            smfplay, arguments: arguments, environment: environment,
            workingDirectory: URL(fileURLWithPath: directory), timeLimit: 60
        ).run()
    }

    static let smfplay = BuiltProduct.url(named: "smfplay")

    // MARK: Files

    /// The absolute path of `relative` under `work`; an absolute path is returned as it is.
    func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : work + "/" + relative
    }

    /// Writes a file (and the folders above it) and returns its absolute path.
    @discardableResult
    func write(_ relative: String, _ bytes: [UInt8]) throws -> String {
        let file = path(relative)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    @discardableResult
    func write(_ relative: String, text: String) throws -> String {
        try write(relative, Array(text.utf8))
    }

    /// Copies a file into the sandbox, making the folders it goes in.
    @discardableResult
    func copy(_ source: String, to relative: String) throws -> String {
        let file = path(relative)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: file)
        return file
    }

    /// Writes the user's configuration file, `$XDG_CONFIG_HOME/smfplay/config.toml`.
    @discardableResult
    func writeUserConfiguration(_ text: String) throws -> String {
        try write(configHome + "/smfplay/config.toml", Array(text.utf8))
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path(relative))
    }

    /// Every file under a folder (hidden ones included, folders left out), as sorted paths
    /// relative to it.
    func files(under relative: String = ".") -> [String] {
        let folder = relative == "." ? work : path(relative)
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { entry in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    func modificationDate(_ relative: String) throws -> Date {
        let attributes = try FileManager.default.attributesOfItem(atPath: path(relative))
        return try #require(attributes[.modificationDate] as? Date)
    }

    func setModificationDate(_ relative: String, _ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path(relative))
    }

    func contents(_ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(relative)))
    }
}
