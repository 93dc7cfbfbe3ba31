import ArgumentParser
import Configuration
import TerminalUI

/// `--config`, and loading the configuration it names (or the user's own).
struct ConfigurationOption: ParsableArguments {
    static let emptyValueMessage = "--config needs a file"

    @Option(
        name: .customLong("config"), help: ArgumentHelp("Read settings from this file.", valueName: "file"),
        completion: .file(extensions: ["toml"]))
    var path: String?

    func checkOwnArguments() throws {
        // An empty name reads as the working folder: "." is no configuration file, and a script
        // whose variable is unset means to name one.
        if path?.isEmpty == true { throw ValidationError(Self.emptyValueMessage) }
    }

    /// The settings, or a failure (status 1) whose one line names the file and what is wrong.
    func load() throws -> Configuration {
        do {
            return try Self.file(path: path).load()
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// The file `--config` names, else the user's own.
    static func file(path: String?) -> ConfigurationFile {
        path.map { ConfigurationFile(path: CommandLinePath.filePath($0)) } ?? .standard(in: XDGDirectories.current())
    }
}

extension ConfigurationOption: ArgumentChecks {
}
