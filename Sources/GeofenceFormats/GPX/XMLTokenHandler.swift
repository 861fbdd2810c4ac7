import GeofenceKit

/// What ``XMLTokenizer`` calls, in document order, for the elements and text it reads.
///
/// The tokenizer has already checked well-formedness: every ``endElement()`` closes the element of the latest
/// unclosed ``startElement(_:)``, text outside the root is never passed on, and self-closing tags come as a
/// start and an end. Byte views passed in are valid only during the call.

protocol XMLTokenHandler {
    mutating func startElement(_ tag: XMLStartTag) throws(InputError)
    mutating func endElement() throws(InputError)
    /// Character data inside the root, in one or more pieces: raw text (references not decoded; a piece never
    /// ends inside a reference) or, when `isCDATA`, the literal contents of a CDATA section.
    mutating func characters(_ text: UnsafeBufferPointer<UInt8>, isCDATA: Bool) throws(InputError)
}
