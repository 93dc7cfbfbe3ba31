/// Where a synthesizer with several outputs (``Synthesizer/outputs``) renders: each output's
/// sound, its reverb and chorus included, as a left and a right plane of `capacity` frames.
/// Allocated once; a render fills it without allocating.
public final class StemBuffers {
    public let outputs: Int
    public let capacity: Int
    /// Output o's left plane at `2 * o * capacity`, its right plane after it.
    private let planes: UnsafeMutablePointer<Float>
    /// FluidSynth's `out` array (each output's dry left and right planes) and `fx` array (each
    /// output's reverb left and right, then its chorus left and right), pointed at the frame a
    /// render starts from by ``point(at:)``. The effects' planes are the output's own:
    /// `fluid_synth_process` adds what it renders to its buffers, and allows them to alias, so
    /// that each output gets its dry sound and its effects summed as FluidSynth mixes them into
    /// one output.
    let dryPlanes: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    let effectPlanes: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>

    public init(outputs: Int, capacity: Int) {
        self.outputs = outputs
        self.capacity = capacity
        planes = .allocate(capacity: 2 * outputs * capacity)
        planes.initialize(repeating: 0, count: 2 * outputs * capacity)
        dryPlanes = .allocate(capacity: 2 * outputs)
        dryPlanes.initialize(repeating: nil, count: 2 * outputs)
        effectPlanes = .allocate(capacity: 4 * outputs)
        effectPlanes.initialize(repeating: nil, count: 4 * outputs)
    }

    deinit {
        planes.deallocate()
        dryPlanes.deallocate()
        effectPlanes.deallocate()
    }

    /// Output `output`'s left plane; its right one is `capacity` floats further.
    @inline(__always)
    private func left(_ output: Int) -> UnsafeMutablePointer<Float> { planes + 2 * output * capacity }

    /// Points FluidSynth's arrays at `frame` of every plane.
    func point(at frame: Int) {
        for output in 0..<outputs {
            let left = left(output) + frame
            let right = left + capacity
            dryPlanes[2 * output] = left
            dryPlanes[2 * output + 1] = right
            for effect in 0..<2 {
                effectPlanes[4 * output + 2 * effect] = left
                effectPlanes[4 * output + 2 * effect + 1] = right
            }
        }
    }

    /// Silence in `frames` frames of every plane from `frame`: FluidSynth adds to what is there.
    func clear(from frame: Int, frames: Int) {
        for plane in 0..<2 * outputs { (planes + plane * capacity + frame).update(repeating: 0, count: frames) }
    }

    /// Scales `frames` frames of every plane from `frame`, each frame by `gain(i)` for the i-th
    /// of them: a master volume, a fade.
    func scale(from frame: Int, frames: Int, by gain: (Int) -> Float) {
        for plane in 0..<2 * outputs {
            let start = planes + plane * capacity + frame
            for index in 0..<frames { start[index] *= gain(index) }
        }
    }

    /// Every output's first `frames` frames summed, as interleaved stereo, into `buffer`: the mix.
    public func mix(frames: Int, into buffer: UnsafeMutablePointer<Float>) {
        precondition(frames <= capacity, "\(frames) frames from planes of \(capacity)")
        buffer.update(repeating: 0, count: 2 * frames)
        for output in 0..<outputs {
            let left = left(output)
            let right = left + capacity
            for index in 0..<frames {
                buffer[2 * index] += left[index]
                buffer[2 * index + 1] += right[index]
            }
        }
    }

    /// Output `output`'s first `frames` frames as interleaved stereo, into `buffer`.
    public func interleave(_ output: Int, frames: Int, into buffer: UnsafeMutablePointer<Float>) {
        precondition(frames <= capacity, "\(frames) frames from planes of \(capacity)")
        let left = left(output)
        let right = left + capacity
        for index in 0..<frames {
            buffer[2 * index] = left[index]
            buffer[2 * index + 1] = right[index]
        }
    }
}
