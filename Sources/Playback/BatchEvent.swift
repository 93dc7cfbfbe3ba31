/// What a batch render reports while it works, from its worker threads.
public enum BatchEvent: Sendable {
    /// A worker took up the job at this index.
    case started(index: Int)
    /// The fraction of the job's song rendered so far.
    case progress(index: Int, fraction: Double)
    case finished(index: Int, RenderResult)
    case failed(index: Int, RenderError)
}
