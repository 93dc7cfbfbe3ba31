/// One song to render, and where its audio goes.
public struct RenderJob: Hashable, Sendable {
    public var input: String
    public var output: String

    public init(input: String, output: String) {
        self.input = input
        self.output = output
    }
}
