/// The player's last seek, until its place is heard: the seek's number, the song it went to and
/// the frame it went to.
struct UnheardSeek {
    var number: Int
    var generation: Int
    var frame: Int64
}
