import Foundation
import Testing

/// Each target imports only what ARCHITECTURE.md allows it, and names in Package.swift every
/// target it imports: a layer that reaches past the one below it, or a C library used outside the
/// module that wraps it, fails here.
struct TargetImportsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ name: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func theSourcesThePackageAndTheDocumentAgree() throws {
        let rules = ImportRules(architecture: try Self.read("ARCHITECTURE.md"), package: try Self.read("Package.swift"))
        let names = Set(rules.targets.map(\.name))
        #expect(
            names.isSuperset(of: ["Files", "SMF", "Synthesis", "Playback", "smfplay"]),
            "Package.swift's targets were not all found: \(names.sorted())")
        let violations = try rules.violations { try ImportRules.imports(inFolder: Self.repository.appendingPathComponent($0.sourceFolder)) }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// The check itself can fail: a pure-Swift layer importing a C library, a layer reaching past
    /// the one below it, and a target the document does not describe are each found.
    @Test func aForbiddenImportIsFound() {
        let architecture = """
            ## What each target may import
            | Target | May import |
            |---|---|
            | `SMF` | `Files`, Foundation |
            | `Playback` | `SMF`, `Synthesis` |
            | `Synthesis` | `SMF`, `CFluidSynth` |
            """
        let package = """
            .target(name: "SMF", dependencies: ["Files"]),
            .target(name: "Synthesis", dependencies: ["SMF", "CFluidSynth", .product(name: "SystemPackage", package: "swift-system")]),
            .target(name: "Playback", dependencies: ["Synthesis"]),
            .executableTarget(name: "tool", dependencies: ["SMF"], path: "Sources/Tool"),
            """
        let rules = ImportRules(architecture: architecture, package: package)
        #expect(
            rules.targets == [
                .init(name: "SMF", dependencies: ["Files"], sourceFolder: "Sources/SMF"),
                .init(name: "Synthesis", dependencies: ["SMF", "CFluidSynth", "SystemPackage"], sourceFolder: "Sources/Synthesis"),
                .init(name: "Playback", dependencies: ["Synthesis"], sourceFolder: "Sources/Playback"),
                .init(name: "tool", dependencies: ["SMF"], sourceFolder: "Sources/Tool"),
            ])
        let imports: [String: Set<String>] = [
            "SMF": ["Files", "Foundation", "CFluidSynth", "Glibc"],
            "Synthesis": ["SMF", "CFluidSynth"],
            "Playback": ["SMF", "Synthesis"],
            "tool": ["SMF"],
        ]
        #expect(
            rules.violations { imports[$0.name]! } == [
                "SMF imports CFluidSynth, which ARCHITECTURE.md does not allow",
                "Synthesis depends on SystemPackage in Package.swift, which ARCHITECTURE.md does not allow",
                "Playback imports SMF without naming it in Package.swift (reached through another target)",
                "tool: a target ARCHITECTURE.md does not describe",
            ])
    }

    @Test func importLinesOfEveryKindAreRead() {
        let source = """
            #if canImport(Glibc)
            import Glibc
            #endif
            @testable import Files
            @_exported import TestSupport
            import struct SystemPackage.FilePath
            // import Commented
            let important = 1
            """
        #expect(ImportRules.imports(inSource: source) == ["Glibc", "Files", "TestSupport", "SystemPackage"])
    }
}
