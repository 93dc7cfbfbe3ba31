/// Paths as text. The module works with the strings people type and read in
/// messages; it never needs Foundation's URL for that.
enum PathText {
    static func join(_ folder: String, _ name: String) -> String {
        if name.hasPrefix("/") { return name }
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder holding `path`: "." for a bare name, "/" for the root.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    static func lastComponent(of path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    /// Absolute, with `~` for the home folder and without `.` parts or doubled
    /// slashes; `..` is kept, since dropping it is wrong behind a symbolic link.
    static func absolute(_ path: String, workingDirectory: String, home: String?) -> String {
        var path = path
        if let home, path == "~" || path.hasPrefix("~/") {
            path = home + path.dropFirst()
        }
        if !path.hasPrefix("/") { path = join(workingDirectory, path) }
        let parts = path.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }
}
