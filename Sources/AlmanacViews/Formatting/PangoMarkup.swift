import AlmanacModels

/// Text for a program that reads Pango markup — waybar takes a custom module's `text` and
/// `tooltip` as markup: an episode titled "Q&A …" or a place's "<" would make it refuse the
/// line, and the module goes blank.
public enum PangoMarkup {
    /// `text` as markup that shows it as it is: `&`, `<` and `>` escaped, and control
    /// characters other than tabs and line breaks shown as pictures (markup refuses some).
    public static func escaped(_ text: String) -> String {
        text.visibleControlCharacters(keepingLineBreaks: true).markupEscaped
    }
}
