import PaywireWire

/// The one bound on a short string a host sets as one value: a custom attribute, a name, an
/// integration id, a network user id, a promo code. Longer is refused with `wrong_param`, never
/// cut: a cut id would join the wrong data.
package enum ValueLimits {
    package static let maxStringBytes = 256
}
