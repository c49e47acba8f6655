module specyard.local/sdks/subtitles

go 1.23

require (
)
