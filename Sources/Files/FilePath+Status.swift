import SystemPackage

extension FilePath {
    /// Whether a folder is there (links followed).
    public var isFolder: Bool {
        (try? stat())?.type == .directory
    }
}
