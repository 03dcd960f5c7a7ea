"""Independent verifiers of the Polaris tasks: each re-derives an item's answer from its written record by
another route than the generator and reads the pixels through the layout's inverse map."""
