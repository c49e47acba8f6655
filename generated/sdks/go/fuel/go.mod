module specyard.local/sdks/fuel

go 1.23

require (
)
