import Foundation
import TestSupport
import Testing

/// `make install DESTDIR=… PREFIX=/usr` and `make uninstall`, as a packager runs them: every file
/// in its place and working (the binary runs, the desktop entry validates, each man page renders
/// without a warning and says what --help says, the completions complete the subcommands), and
/// uninstall takes back exactly those files.
///
/// The binary installed is the debug build next to the test runner, with the generate-manual
/// built beside it by `make test`: a release build of its own would cost CI minutes, and the
/// Makefile's rules are the same for either.
@Suite("make install")
struct InstallTests {
    static let packageRoot = Fixtures.packageRoot

    @Test("installs every file where the desktop looks for it, and uninstall removes exactly those")
    func installAndUninstall() throws {
        let smfplay = try #require(BuiltProduct.url(named: "smfplay"), "\(BuiltProduct.notFoundMessage("smfplay"))")
        let generateManual = try #require(
            BuiltProduct.url(named: "generate-manual"),
            """
            generate-manual was not found next to the test runner: build it with `swift build --product generate-manual` \
            using the same scratch path as the tests (make test does)
            """)
        let make = try Self.program("make", package: "make")
        let folder = try TemporaryFolder()
        let root = folder.path + "/root"
        // Files of other packages in the same folders: uninstall must leave them.
        let others = ["usr/bin/other", "usr/share/man/man1/other.1", "usr/share/applications/other.desktop"]
        for file in others {
            try FileManager.default.createDirectory(
                atPath: ((root + "/" + file) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("other\n".utf8).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        let variables = [
            "DESTDIR=\(root)", "PREFIX=/usr", "SMFPLAY=\(smfplay.path)",
            "GENERATE_MANUAL=\(generateManual.path)", "GENERATED=\(folder.path)/generated",
        ]

        let install = try Command(
            make, arguments: ["-C", Self.packageRoot, "install"] + variables,
            environment: Self.environment(), timeLimit: 300
        ).run()
        try #require(install.succeeded, "\(install)")

        let help = try Self.helpDocument(of: smfplay)
        let subcommands = try #require(help.subcommands, "smfplay --experimental-dump-help lists no subcommands")
        let manPages = ["smfplay.1"] + subcommands.map { "smfplay.\($0.commandName).1" }
        let installed =
            [
                "usr/bin/smfplay",
                "usr/share/bash-completion/completions/smfplay",
                "usr/share/zsh/site-functions/_smfplay",
                "usr/share/fish/vendor_completions.d/smfplay.fish",
                "usr/share/applications/smfplay.desktop",
                "usr/share/thumbnailers/smfplay.thumbnailer",
                "usr/share/mime/packages/smfplay-mime.xml",
            ] + manPages.map { "usr/share/man/man1/" + $0 }
        #expect(Self.files(under: root) == Set(installed + others))

        try checkBinary(root + "/usr/bin/smfplay", built: smfplay)
        for file in ["smfplay.desktop", "smfplay.thumbnailer", "smfplay-mime.xml"] {
            let target = file.hasSuffix(".desktop") ? "applications" : file.hasSuffix(".xml") ? "mime/packages" : "thumbnailers"
            #expect(
                FileManager.default.contents(atPath: root + "/usr/share/\(target)/\(file)")
                    == FileManager.default.contents(atPath: Self.packageRoot + "/Config/" + file),
                "\(file) should be installed as it is in Config/")
        }
        try checkDesktopEntry(root + "/usr/share/applications/smfplay.desktop")
        try checkMIMETypes(root + "/usr/share/mime/packages/smfplay-mime.xml")
        for command in [help] + subcommands {
            let page = root + "/usr/share/man/man1/smfplay" + (command === help ? "" : "." + command.commandName) + ".1"
            try checkManPage(page, documents: command)
        }
        let names = subcommands.map(\.commandName)
        try checkBashCompletion(root + "/usr/share/bash-completion/completions/smfplay", offers: names)
        for (file, firstLine) in [("zsh/site-functions/_smfplay", "#compdef smfplay"), ("fish/vendor_completions.d/smfplay.fish", nil)] {
            let text = try String(contentsOfFile: root + "/usr/share/" + file, encoding: .utf8)
            if let firstLine { #expect(text.hasPrefix(firstLine + "\n"), "\(file)") }
            for name in names { #expect(text.contains("'\(name)'") || text.contains("\(name):"), "\(file) should offer \(name)") }
        }

        let uninstall = try Command(
            make, arguments: ["-C", Self.packageRoot, "uninstall"] + variables,
            environment: Self.environment(), timeLimit: 60
        ).run()
        #expect(uninstall.succeeded, "\(uninstall)")
        #expect(Self.files(under: root) == Set(others), "uninstall should remove its files and only those")
    }

    // MARK: Checks

    private func checkBinary(_ path: String, built: URL) throws {
        #expect(FileManager.default.isExecutableFile(atPath: path))
        let installed = try Command(URL(fileURLWithPath: path), arguments: ["--version"]).run()
        let original = try Command(built, arguments: ["--version"]).run()
        #expect(installed.succeeded, "\(installed)")
        #expect(!installed.stdout.isEmpty && installed.stdout == original.stdout, "\(installed)")
    }

    private func checkDesktopEntry(_ path: String) throws {
        let validator = try Self.program("desktop-file-validate", package: "desktop-file-utils")
        let result = try Command(validator, arguments: [path]).run()
        #expect(result.succeeded && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // The same types as the media keys' SupportedMimeTypes (PublishedValuesTests).
        let types = "audio/midi;audio/x-midi;audio/x-rmid;audio/x-midi2-clip;audio/x-mus;audio/x-xmi;audio/x-hmp;audio/x-hmi;audio/x-recomposer;"
        for line in ["Exec=smfplay play %F", "Terminal=true", "MimeType=" + types] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "\(path) should have \(line)")
        }
    }

    /// The types a desktop gives files with the MIME package installed beside shared-mime-info's
    /// own (`gio info`): an XMI song named `.xmi` is `audio/x-xmi` (shared-mime-info gives the
    /// extension to XML Metadata Interchange, and a glob matched alone wins over any magic), an XML
    /// Metadata Interchange file stays `text/x-xmi`, and a song without its extension is known by
    /// its first bytes.
    private func checkMIMETypes(_ package: String) throws {
        let update = try Self.program("update-mime-database", package: "shared-mime-info")
        let gio = try Self.program("gio", package: "libglib2.0-bin")
        let folder = try TemporaryFolder()
        let packages = folder.path + "/share/mime/packages"
        try FileManager.default.createDirectory(atPath: packages, withIntermediateDirectories: true)
        for file in [package, "/usr/share/mime/packages/freedesktop.org.xml"] {
            try FileManager.default.copyItem(atPath: file, toPath: packages + "/" + (file as NSString).lastPathComponent)
        }
        let updated = try Command(update, arguments: [folder.path + "/share/mime"]).run()
        #expect(updated.succeeded, "\(updated)")
        let xmiSong = Array("FORM".utf8) + [0, 0, 0, 14] + Array("XDIRINFO".utf8) + [0, 0, 0, 2, 1, 0]
        let files: [(name: String, bytes: [UInt8], type: String)] = [
            ("song.xmi", xmiSong, "audio/x-xmi"),
            ("song", xmiSong, "audio/x-xmi"),
            ("model.xmi", Array("<?xml version=\"1.0\"?>\n<XMI xmlns=\"http://schema.omg.org/spec/XMI/2.1\"/>\n".utf8), "text/x-xmi"),
            ("doom.mus", Array("MUS".utf8) + [0x1A] + [UInt8](repeating: 0, count: 12), "audio/x-mus"),
        ]
        var environment = Self.environment()
        environment["XDG_DATA_DIRS"] = folder.path + "/share"
        environment["XDG_DATA_HOME"] = folder.path + "/nothing"
        for file in files {
            let path = folder.path + "/" + file.name
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
            let info = try Command(gio, arguments: ["info", "-a", "standard::content-type", path], environment: environment).run()
            #expect(info.stdout.contains("standard::content-type: \(file.type)\n"), "\(file.name): \(info)")
        }
    }

    /// The page renders without a warning, in a UTF-8 locale and in the C locale (which has no
    /// kana: their ASCII stand-ins, not troff's warnings), and says every help text of the
    /// command as it is, `ショパン` and `–` included (generate-manual keeps ASCII only: the
    /// Makefile spells the rest as tokens it turns into groff's glyphs after).
    private func checkManPage(_ path: String, documents command: HelpDocument) throws {
        let man = try Self.program("man", package: "man-db")
        for locale in ["C.UTF-8", "C"] {
            var environment = Self.environment()
            environment["LC_ALL"] = locale
            let warnings = try Command(man, arguments: ["--warnings", "-l", path], environment: environment).run()
            #expect(warnings.succeeded && warnings.stderr.isEmpty, "\(locale): \(warnings)")
        }
        var environment = Self.environment()
        environment["MANWIDTH"] = "10000"
        environment["LC_ALL"] = "C.UTF-8"
        let rendered = try Command(man, arguments: ["-l", path], environment: environment).run()
        #expect(rendered.succeeded, "\(rendered)")
        let text = Self.plain(rendered.stdout)
        for help in command.helpTexts {
            #expect(
                text.range(of: Self.pattern(matching: help), options: .regularExpression) != nil,
                "\((path as NSString).lastPathComponent) should say “\(help)”")
        }
    }

    private func checkBashCompletion(_ path: String, offers subcommands: [String]) throws {
        let bash = try Self.program("bash", package: "bash")
        let script = #"""
            source "$1" || exit 1
            function=$(complete -p smfplay | sed -E 's/.* -F ([^ ]+) .*/\1/')
            COMP_WORDS=(smfplay ""); COMP_CWORD=1; COMP_LINE="smfplay "; COMP_POINT=8
            "$function"
            printf '%s\n' "${COMPREPLY[@]}"
            """#
        let result = try Command(bash, arguments: ["-c", script, "bash", path]).run()
        #expect(result.succeeded, "\(result)")
        #expect(Set(subcommands).isSubset(of: Set(result.stdoutLines)), "\(result)")
        // An option's values: the text encodings.
        let values = #"""
            source "$1" || exit 1
            function=$(complete -p smfplay | sed -E 's/.* -F ([^ ]+) .*/\1/')
            COMP_WORDS=(smfplay info --text-encoding ""); COMP_CWORD=3; COMP_LINE="smfplay info --text-encoding "; COMP_POINT=29
            # As bash calls it: the command, the word completed and the one before.
            "$function" smfplay "" --text-encoding
            printf '%s\n' "${COMPREPLY[@]}"
            """#
        let encodings = try Command(bash, arguments: ["-c", values, "bash", path]).run()
        #expect(encodings.succeeded && Set(encodings.stdoutLines) == ["auto", "utf-8", "shift-jis", "cp1252"], "\(encodings)")
        // `smfplay PATH...` plays: the first word completes as a path too, the words after a path
        // as play's, and the word after `help` as a command.
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("Chopin/Ballades"), withIntermediateDirectories: true)
        let implicitPlay = #"""
            source "$1" || exit 1
            cd "$2" || exit 1
            function=$(complete -p smfplay | sed -E 's/.* -F ([^ ]+) .*/\1/')
            offers() {
                COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                COMPREPLY=()
                "$function" smfplay "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
                echo "$*: ${COMPREPLY[*]}"
            }
            offers smfplay Cho
            offers smfplay re
            offers smfplay Chopin/ --shu
            offers smfplay Chopin/ Chopin/B
            offers smfplay help rep
            """#
        let offered = try Command(bash, arguments: ["-c", implicitPlay, "bash", path, folder.path]).run()
        #expect(
            offered.succeeded
                && offered.stdoutLines == [
                    "smfplay Cho: Chopin", "smfplay re: render report resume", "smfplay Chopin/ --shu: --shuffle",
                    "smfplay Chopin/ Chopin/B: Chopin/Ballades", "smfplay help rep: report",
                ], "\(offered)")
    }

    // MARK: Helpers

    /// The test runner's environment without what a `make test` above it set for its own children.
    static func environment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !["MAKEFLAGS", "MFLAGS", "MAKELEVEL", "DESTDIR", "PREFIX"].contains($0.key) }
    }

    static func program(_ name: String, package: String) throws -> URL {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        let path = folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return URL(fileURLWithPath: try #require(path, "\(name) is missing: install Debian's \(package) (make deps)"))
    }

    /// Every file under `root`, as paths relative to it.
    static func files(under root: String) -> Set<String> {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        return Set(
            enumerator.compactMap { $0 as? String }.filter { entry in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: root + "/" + entry, isDirectory: &isFolder) && !isFolder.boolValue
            })
    }

    /// Rendered text with groff's typographic hyphens and quotes as the ASCII they were typed as,
    /// and every run of white space as one space.
    static func plain(_ text: String) -> String {
        let typed: [Character: Character] = [
            "\u{2010}": "-", "\u{2011}": "-", "\u{2212}": "-", "\u{2018}": "'", "\u{2019}": "'",
            "\u{201C}": "\"", "\u{201D}": "\"",
        ]
        return String(text.map { typed[$0] ?? $0 }).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A regular expression for a help text as the man page shows it.
    static func pattern(matching help: String) -> String {
        help.split(whereSeparator: \.isWhitespace).map { NSRegularExpression.escapedPattern(for: plain(String($0))) }.joined(separator: " ")
    }

    static func helpDocument(of smfplay: URL) throws -> HelpDocument {
        let result = try Command(smfplay, arguments: ["--experimental-dump-help"]).run()
        try #require(result.succeeded, "\(result)")
        struct Document: Decodable { var command: HelpDocument }
        return try JSONDecoder().decode(Document.self, from: result.standardOutput).command
    }
}

/// The part of ArgumentParser's `--experimental-dump-help` a man page is made from.
final class HelpDocument: Decodable {
    struct Argument: Decodable {
        var abstract: String?
        var shouldDisplay: Bool
    }

    let commandName: String
    let abstract: String?
    let discussion: String?
    let arguments: [Argument]?
    let subcommands: [HelpDocument]?

    /// What the command's page must say: its abstract and discussion, and each shown argument's help.
    var helpTexts: [String] {
        [abstract, discussion].compactMap { $0 } + (arguments ?? []).filter(\.shouldDisplay).compactMap(\.abstract)
    }
}
