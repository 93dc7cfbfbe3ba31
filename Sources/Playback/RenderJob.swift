import SystemPackage

/// One song to render, and where its audio goes.
public struct RenderJob: Hashable, Sendable {
    public var input: FilePath
    public var output: FilePath

    public init(input: FilePath, output: FilePath) {
        self.input = input
        self.output = output
    }
}
