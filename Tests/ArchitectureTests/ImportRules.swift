import Foundation

/// What ARCHITECTURE.md allows each target to import, what Package.swift declares, and what the
/// sources import, read from the files themselves; and where the three disagree.
struct ImportRules {
    /// A library or executable target of Package.swift.
    struct Target: Equatable {
        var name: String
        var dependencies: Set<String>
        var sourceFolder: String
    }

    /// Modules any target may import: the platform's C library and the standard library's own.
    static let platformModules: Set<String> = ["Glibc", "Darwin", "Dispatch", "Synchronization", "_Concurrency"]

    /// Target name → the modules it may import, from the table under "## What each target may import".
    let allowed: [String: Set<String>]
    let targets: [Target]

    init(architecture: String, package: String) {
        allowed = Self.allowedImports(in: architecture)
        targets = Self.targets(in: package)
    }

    /// Every disagreement, one line each; empty when the sources, the package and the document agree.
    func violations(importsOf imports: (Target) throws -> Set<String>) rethrows -> [String] {
        var found: [String] = []
        for target in targets {
            guard let allowed = allowed[target.name] else {
                found.append("\(target.name): a target ARCHITECTURE.md does not describe")
                continue
            }
            for module in try imports(target).subtracting(Self.platformModules).sorted() {
                if !allowed.contains(module) {
                    found.append("\(target.name) imports \(module), which ARCHITECTURE.md does not allow")
                } else if module != "Foundation", !target.dependencies.contains(module) {
                    found.append("\(target.name) imports \(module) without naming it in Package.swift (reached through another target)")
                }
            }
            for dependency in target.dependencies.sorted() where !allowed.contains(dependency) {
                found.append("\(target.name) depends on \(dependency) in Package.swift, which ARCHITECTURE.md does not allow")
            }
        }
        for name in allowed.keys.sorted() where !targets.contains(where: { $0.name == name }) {
            found.append("\(name): in ARCHITECTURE.md but not a target of Package.swift")
        }
        return found
    }

    /// The modules a folder's Swift files import.
    static func imports(inFolder folder: URL) throws -> Set<String> {
        var modules: Set<String> = []
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            modules.formUnion(imports(inSource: try String(contentsOf: file, encoding: .utf8)))
        }
        return modules
    }

    /// `import X`, `@testable import X`, `@_exported import X`, `import struct X.Y`: X.
    static func imports(inSource text: String) -> Set<String> {
        var modules: Set<String> = []
        for line in text.split(separator: "\n") {
            var words = line.split(separator: " ").drop { $0.hasPrefix("@") }
            guard words.first == "import" else { continue }
            words = words.dropFirst()
            if let kind = words.first, ["struct", "class", "enum", "protocol", "func", "var", "typealias"].contains(kind) {
                words = words.dropFirst()
            }
            if let module = words.first?.split(separator: ".").first { modules.insert(String(module)) }
        }
        return modules
    }

    /// Rows such as "| `Playback` | `SMF`, `Synthesis`, Foundation |" of the table that follows the
    /// heading "## What each target may import".
    static func allowedImports(in document: String) -> [String: Set<String>] {
        var table: [String: Set<String>] = [:]
        var inTable = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                inTable = line.hasPrefix("## What each target may import")
                continue
            }
            guard inTable, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard name.first?.isLetter == true, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), name != "Target" else {
                continue
            }
            let modules = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }.filter {
                !$0.isEmpty && $0 != "nothing"
            }
            table[name] = Set(modules)
        }
        return table
    }

    /// The `.target` and `.executableTarget` entries of Package.swift (test, test-support and
    /// system-library targets have no rules here): name, dependencies (a product by its module's name) and folder.
    static func targets(in package: String) -> [Target] {
        var targets: [Target] = []
        var rest = Substring(package)
        while let start = rest.firstMatch(of: /\.(target|executableTarget)\(/) {
            let call = balanced(rest[start.range.upperBound...], open: "(", close: ")")
            rest = rest[call.endIndex...]
            guard let name = call.firstMatch(of: /name:\s*"([^"]+)"/)?.1 else { continue }
            var dependencies: Set<String> = []
            if let list = call.firstMatch(of: /dependencies:\s*\[/) {
                var body = String(balanced(call[list.range.upperBound...], open: "[", close: "]"))
                for product in body.matches(of: /\.product\(name:\s*"([^"]+)"[^)]*\)/) { dependencies.insert(String(product.1)) }
                body.replace(/\.product\([^)]*\)/, with: "")
                for target in body.matches(of: /"([^"]+)"/) { dependencies.insert(String(target.1)) }
            }
            let path = call.firstMatch(of: /path:\s*"([^"]+)"/).map { String($0.1) } ?? "Sources/\(name)"
            // Test support code is no layer of the program.
            if path.hasPrefix("Tests/") { continue }
            targets.append(Target(name: String(name), dependencies: dependencies, sourceFolder: path))
        }
        return targets
    }

    /// The text up to the bracket that closes the one just opened (Package.swift's strings hold no brackets).
    private static func balanced(_ text: Substring, open: Character, close: Character) -> Substring {
        var depth = 1
        for index in text.indices {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return text[..<index] }
            }
        }
        return text
    }
}
