import Files
import Library
import SystemPackage

/// The MIDI files a batch render is about, each with the path its output takes under the output
/// folder (its extension not yet changed): the path under the folder given, or under a
/// manifest's folder; a file given alone keeps only its name.
public struct RenderInputs {
    public struct Item {
        public let input: FilePath
        let relativePath: FilePath
    }

    public private(set) var items: [Item] = []
    /// Inputs that could not be used: missing, unreadable folders, empty ones.
    public private(set) var problems: [RenderProblem] = []

    public init(inputs: [FilePath], manifest: InputManifest?) {
        for input in inputs {
            var collector = MIDIFileCollector()
            collector.add(path: input)
            problems += collector.problems.map { RenderProblem(input: $0.path, description: $0.description) }
            let base = MIDIFileCollector.holdsSongs(input) ? input : nil
            for file in collector.files {
                var relative = Self.name(of: file)
                if let base {
                    var inside = file
                    if inside.removePrefix(base) { relative = inside }
                }
                items.append(Item(input: file, relativePath: relative))
            }
        }
        // Taken as they are, unchecked: a task reads the list instead of the file system, and a
        // missing file is found by the one shard that has it.
        for entry in manifest?.entries ?? [] {
            items.append(Item(input: entry.file, relativePath: entry.relativePath ?? Self.name(of: entry.file)))
        }
    }

    private static func name(of file: FilePath) -> FilePath {
        FilePath(root: nil, file.lastComponent.map { [$0] } ?? [])
    }
}
