import FoundationEssentials

extension Double {
    /// The number as a refusal echoes what was given: whole numbers whole ("0", not "0.0";
    /// "8639999999913600", not "8.6399999999136e+15"), others as Swift writes them.
    public var echoedText: String {
        isFinite && self == rounded() && abs(self) < 9e18 ? String(Int64(self)) : "\(self)"
    }
}
