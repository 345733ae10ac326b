# threads and topology views, settings file
