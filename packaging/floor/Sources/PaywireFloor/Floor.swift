/// The one export of the size floor: as little Swift as a library can hold.
@_cdecl("paywire_floor_answer")
public func paywire_floor_answer() -> Int32 { 42 }
