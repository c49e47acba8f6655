module specyard.local/sdks/smoke

go 1.23

require (
	specyard.local/sdks/archive v0.0.0
	specyard.local/sdks/fuel v0.0.0
	specyard.local/sdks/subtitles v0.0.0
)

require gopkg.in/validator.v2 v2.0.1 // indirect

replace (
	specyard.local/sdks/archive => ../../generated/sdks/go/archive
	specyard.local/sdks/fuel => ../../generated/sdks/go/fuel
	specyard.local/sdks/subtitles => ../../generated/sdks/go/subtitles
)
