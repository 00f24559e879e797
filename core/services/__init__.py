"""The operations of the memory, each over a `Services` context and the storage roles it uses."""
