// How `almanac episode show` is laid out within a terminal's width.

import AlmanacModels

extension EpisodeDetailViewData {
    /// The episode in full within `width` columns: the title (wrapped), a line of podcast,
    /// date, length and progress (the date's words go first, then the length; the podcast is
    /// cut), the numbering and flags, the notes wrapped to the width, the chapters (start
    /// times aligned, titles cut), the links numbered, then people, transcripts, art and the
    /// downloaded file. Addresses and paths are printed whole, never cut or broken, so that
    /// they stay one thing to click or copy: a line holding one may be longer than `width`.
    public func lines(width: Int) -> [StyledLine] {
        var lines = wrapped(episode.title, width: width).map { StyledLine($0, .bold) }
        let progressText = episode.progress.isEmpty ? "" : episode.progress + (episode.remaining.isEmpty ? "" : ", \(episode.remaining)")
        lines.append(fitLine([
            LineField([StyledLine(episode.podcast), StyledLine(truncated(episode.podcast, to: 24))], priority: 20),
            publishedDay.isEmpty
                ? .optional(StyledLine(episode.published, .dim), priority: 5, separator: " · ")
                : .optional(StyledLine("\(publishedDay) (\(episode.published))", .dim), StyledLine(publishedDay, .dim), shorten: 30, drop: 5, separator: " · "),
            episode.duration.isEmpty ? .kept(StyledLine()) : .optional(StyledLine(episode.duration), priority: 10, separator: " · "),
            progressText.isEmpty ? .kept(StyledLine()) : LineField([StyledLine(progressText), StyledLine(episode.progress)], priority: 25, separator: " · "),
        ], width: width))
        let flags = [numbering, kind, explicit == true ? "explicit" : ""].filter { !$0.isEmpty }
        if !flags.isEmpty { lines.append(StyledLine(flags.joined(separator: " · "), .dim).truncated(to: width)) }
        if !link.isEmpty { lines.append(StyledLine(link, .dim)) }

        lines.append(StyledLine())
        if !detailsKnown {
            lines += wrapped("Show notes not read yet: they come with the podcast's next refresh (`almanac podcasts refresh`).", width: width)
                .map { StyledLine($0, .dim) }
        } else if notes.isEmpty {
            lines.append(StyledLine("No show notes.", .dim))
        } else {
            lines += wrapped(notes, width: width).map { StyledLine($0) }
        }

        if !chapters.isEmpty || !chaptersNote.isEmpty {
            lines += [StyledLine(), StyledLine("Chapters", .bold)]
            let startWidth = chapters.map { displayWidth($0.start) }.max() ?? 0
            for chapter in chapters {
                let start = StyledLine("  " + padded(chapter.start, to: startWidth, alignment: .right) + "  ", .dim)
                let marker = chapter.link.map { "[\($0)]" } ?? ""
                let room = max(1, width - start.width - displayWidth(marker))
                lines.append(start + StyledLine(truncated(chapter.title, to: room)) + StyledLine(marker, .dim))
            }
            if !chaptersNote.isEmpty {
                lines += wrapped(chaptersNote, width: width - 2, indent: "").map { StyledLine("  " + $0, .alert) }
            }
        }

        if !links.isEmpty {
            lines += [StyledLine(), StyledLine("Links", .bold)]
            let numberWidth = displayWidth("[\(links.count)]")
            for (index, url) in links.enumerated() {
                lines.append(StyledLine("  " + padded("[\(index + 1)]", to: numberWidth, alignment: .right) + " ", .dim) + StyledLine(url))
            }
        }

        var more: [StyledLine] = []
        if !persons.isEmpty {
            more += wrapped("People: " + people, width: width, indent: "  ").map { StyledLine($0) }
        }
        for transcript in transcripts {
            let about = [transcript.type, transcript.language].compactMap { $0 }.joined(separator: ", ")
            more.append(StyledLine("Transcript: ", .dim) + StyledLine(transcript.url) + StyledLine(about.isEmpty ? "" : " (\(about))", .dim))
        }
        if !image.isEmpty { more.append(StyledLine("Art: ", .dim) + StyledLine(image)) }
        if !podcastImage.isEmpty, podcastImage != image { more.append(StyledLine("Podcast art: ", .dim) + StyledLine(podcastImage)) }
        if !episode.file.isEmpty { more.append(StyledLine("Downloaded: ", .dim) + StyledLine(episode.file)) }
        if !more.isEmpty { lines += [StyledLine()] + more }
        return lines
    }
}
