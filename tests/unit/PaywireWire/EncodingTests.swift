import Testing
@testable import PaywireWire

/// Hex and base64url: the encodings the device and the server share (the server keeps no copy).
@Suite struct EncodingTests {
    @Test func hexWritesLowercaseDigitsAndReadsEitherCase() {
        let bytes: [UInt8] = [0x00, 0x0f, 0xa5, 0xff]
        #expect(Hex.encode(bytes) == "000fa5ff")
        #expect(Hex.decode("000fa5ff") == bytes)
        #expect(Hex.decode("000FA5FF") == bytes)
        #expect(Hex.decode("") == [])
    }

    @Test func hexRefusesOddLengthsStrayCharactersAndTheWrongCount() {
        for bad in ["0", "0g", "  ", "0x0f", "ab\n"] { #expect(Hex.decode(bad) == nil) }
        #expect(Hex.decode("abcd", count: 2) == [0xab, 0xcd])
        #expect(Hex.decode("abcd", count: 3) == nil)
    }

    @Test func base64URLMatchesRFC4648WithoutPadding() {
        let vectors = [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64.encodeURL(Array(plain.utf8)) == encoded)
            #expect(Base64.decodeURL(encoded) == Array(plain.utf8))
        }
        #expect(Base64.encodeURL([0xfb, 0xff]) == "-_8")
        #expect(Base64.decodeURL("-_8") == [0xfb, 0xff])
    }

    @Test func base64URLRefusesPaddingTheStandardAlphabetAndNonCanonicalText() {
        for bad in ["Zg==", "+_8", "/_8", "Z", "Zh", "Zm9v Yg", "Zm9vY"] { #expect(Base64.decodeURL(bad) == nil) }
    }
}
